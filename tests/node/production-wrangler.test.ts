// [env.production] of wrangler.toml as wrangler reads it (its own readConfig), and the production
// bundle as `wrangler deploy --env production` would upload it: `--dry-run` bundles without an
// account. Needs the build (npm test builds first).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import { requiredSecrets } from "../../worker/production-config";

const ROOT = resolve(__dirname, "../..");
const production = unstable_readConfig(
  { config: resolve(ROOT, "wrangler.toml"), env: "production" },
  { hideWarnings: true },
);
const local = unstable_readConfig({ config: resolve(ROOT, "wrangler.toml") }, { hideWarnings: true });

describe("wrangler.toml, production", () => {
  it("serves only the group's domains: no workers.dev address, no preview URLs; apex and www", () => {
    expect(production.workers_dev).toBe(false);
    expect(production.preview_urls).toBe(false);
    expect(production.routes).toEqual([
      { pattern: "afxholdinggroup.com", custom_domain: true },
      { pattern: "www.afxholdinggroup.com", custom_domain: true },
    ]);
    expect(new URL(production.vars.SITE_URL as string).hostname).toBe("afxholdinggroup.com");
  });

  it("uploads source maps, and keeps the secrets out of process.env", () => {
    for (const config of [production, local]) {
      expect(config.upload_source_maps).toBe(true);
      expect(config.minify).toBe(true);
      // Node.js compatibility is a default at this compatibility date; the flag stops it from
      // populating process.env (the worker test "process.env holds no secret" checks the runtime).
      expect(config.compatibility_flags).toEqual(["nodejs_compat_do_not_populate_process_env"]);
    }
  });

  it("declares the secrets the worker needs, so wrangler refuses an upload without them", () => {
    expect(production.secrets?.required).toEqual(requiredSecrets(production.vars.MAIL_TRANSPORT as string));
    expect(production.secrets?.required).not.toContain("SMTP_PASSWORD"); // the Email Service needs none
    // Locally they are optional (.dev.vars; the tests bind their own).
    expect(local.secrets).toBeUndefined();
  });

  it(
    "`wrangler deploy --dry-run --env production` bundles the worker with its source map",
    { timeout: 120_000 },
    () => {
      expect(existsSync(resolve(ROOT, "build/server/index.js")), "run `npm run build` first").toBe(true);
      const outdir = mkdtempSync(join(tmpdir(), "afx-dry-run-"));
      try {
        const run = spawnSync(
          resolve(ROOT, "node_modules/.bin/wrangler"),
          ["deploy", "--dry-run", "--env", "production", "--outdir", outdir],
          {
            cwd: ROOT,
            encoding: "utf8",
            env: { ...process.env, NODE_ENV: "production", WRANGLER_SEND_METRICS: "false", CI: "true" },
          },
        );
        expect(run.status, run.stderr).toBe(0);
        expect(run.stdout).toContain("--dry-run: exiting now.");
        expect(run.stdout).toMatch(/env\.DB \(afx-holding-group\)\s+D1 Database/);
        expect(run.stdout).toMatch(/env\.MAIL_QUEUE \(afx-mail-production\)\s+Queue/);
        expect(run.stdout).toMatch(/env\.EMAIL\b.*Send Email/i);
        expect(run.stdout).toMatch(/env\.ENVIRONMENT \("production"\)/);
        expect(readdirSync(outdir).sort()).toEqual(expect.arrayContaining(["server.js", "server.js.map"]));
      } finally {
        rmSync(outdir, { recursive: true, force: true });
      }
    },
  );
});
