// `npm run deploy` (scripts/deploy.mjs) with real wrangler against a real local D1: migrations
// applied without a prompt and checked by listing them again; a migration that fails stops the
// deploy with one line; nothing after a failed step runs. The final step is `wrangler deploy
// --dry-run` (bundles a small worker, uploads nothing): --local implies it.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GOOD_SMTP_VARS } from "../fixtures/production-config";

const ROOT = resolve(__dirname, "../..");
const WRANGLER = resolve(ROOT, "node_modules/.bin/wrangler");
const DRY_RUN_DONE = "--dry-run: exiting now.";
const dir = mkdtempSync(join(tmpdir(), "afx-deploy-"));
const persistTo = join(dir, "state");
const config = join(dir, "wrangler.toml");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A worker of its own (bundled in a second) with production's shape: good vars, the D1 binding,
// the required secrets, the domains.
mkdirSync(join(dir, "migrations"));
writeFileSync(join(dir, "worker.js"), "export default { fetch: () => new Response('ok') };\n");
writeFileSync(
  config,
  `name = "afx-deploy-test"
main = "worker.js"
compatibility_date = "2026-11-01"
[env.production]
workers_dev = false
preview_urls = false
routes = [{ pattern = "afxholdinggroup.com", custom_domain = true }, { pattern = "www.afxholdinggroup.com", custom_domain = true }]
[env.production.limits]
cpu_ms = 5000
[env.production.secrets]
required = ["SESSION_SECRET", "MAIL_SECRET", "OAUTH_CLIENT_SECRET", "SMTP_PASSWORD"]
[[env.production.d1_databases]]
binding = "DB"
database_name = "afx-deploy-test"
database_id = "3f2c9a1e-5b7d-4e2f-9c41-0a8b6d2e7f10"
migrations_dir = "migrations"
[[env.production.r2_buckets]]
binding = "DOCUMENTS"
bucket_name = "afx-deploy-test-documents"
[env.production.vars]
${Object.entries(GOOD_SMTP_VARS)
  .map(([name, value]) => `${name} = ${JSON.stringify(value)}`)
  .join("\n")}
`,
);

const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };
const deploy = (...args: string[]) =>
  spawnSync(
    process.execPath,
    [resolve(ROOT, "scripts/deploy.mjs"), "--local", "--persist-to", persistTo, "--skip-build", ...args],
    { cwd: ROOT, encoding: "utf8", env },
  );
/** The local database's tables, straight from wrangler. */
const tables = () => {
  const run = spawnSync(
    WRANGLER,
    [
      "d1",
      "execute",
      "DB",
      "--local",
      "--persist-to",
      persistTo,
      "--env",
      "production",
      "--config",
      config,
      "--json",
      "--command",
      "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
    ],
    { cwd: ROOT, encoding: "utf8", env },
  );
  expect(run.status, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { results: { name: string }[] }[])[0]!.results.map((r) => r.name);
};
const lastLine = (text: string) => text.trim().split("\n").at(-1);

// Each case runs wrangler several times: seconds apiece on a busy machine.
describe("npm run deploy", { timeout: 180_000 }, () => {
  it("applies a pending migration without a prompt, then deploys", () => {
    writeFileSync(
      join(dir, "migrations", "0001_notes.sql"),
      "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL);\n",
    );
    const run = deploy("--config", config);
    expect(run.stderr).not.toMatch(/✘/);
    expect(run.stdout).toContain("Applied 1 migration(s): 0001_notes.sql");
    expect(run.stdout).toContain(DRY_RUN_DONE);
    expect(lastLine(run.stdout)).toBe("✔ Dry run complete.");
    expect(run.status).toBe(0);
    expect(tables()).toContain("notes");
  });

  it("refuses in one line when a migration fails, and never deploys", () => {
    writeFileSync(
      join(dir, "migrations", "0002_broken.sql"),
      "CREATE TABLE tags (id INTEGER PRIMARY KEY);\nALTER TABLE no_such_table ADD COLUMN x TEXT;\n",
    );
    writeFileSync(join(dir, "migrations", "0003_after.sql"), "CREATE TABLE later (id INTEGER PRIMARY KEY);\n");
    const run = deploy("--config", config);
    expect(run.status).toBe(1);
    expect(lastLine(run.stderr)).toBe(
      "✘ Not deployed: migration 0002_broken.sql did not apply (wrangler's error above); the previous version keeps serving on the schema before it.",
    );
    expect(run.stdout + run.stderr).toMatch(/no such table: no_such_table/);
    expect(run.stdout).not.toContain(DRY_RUN_DONE);
    // The failed migration rolled back whole (its first statement too), and none after it ran.
    const after = tables();
    expect(after).toContain("notes");
    expect(after).not.toContain("tags");
    expect(after).not.toContain("later");

    // Still pending on the next run: refused again, before any deploy.
    const again = deploy("--config", config);
    expect(again.status).toBe(1);
    expect(lastLine(again.stderr)).toMatch(/^✘ Not deployed: migration 0002_broken\.sql did not apply/);
    expect(again.stdout).not.toContain(DRY_RUN_DONE);
  });

  it("with today's placeholders, stops at check:production: no migration, no deploy", () => {
    const fresh = join(dir, "untouched");
    const run = spawnSync(
      process.execPath,
      [resolve(ROOT, "scripts/deploy.mjs"), "--local", "--persist-to", fresh, "--skip-build"],
      { cwd: ROOT, encoding: "utf8", env },
    );
    expect(run.status).toBe(1);
    expect(lastLine(run.stderr)).toBe(
      "✘ Not deployed: the production configuration has 9 problem(s), listed above; nothing was changed.",
    );
    expect(run.stderr).toContain("  - MAIL_FROM is not a sender address on the group's own domain");
    expect(run.stdout).not.toMatch(/Migrating|Deploying/);
  });
});
