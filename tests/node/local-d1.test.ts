import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { seedVars } from "../../scripts/lib/config.mjs";
import { migrate } from "../../scripts/lib/local-worker.mjs";

// The local D1 of npm start, the browser tests and the benches (scripts/lib/local-worker.mjs).
const ROOT = resolve(__dirname, "../..");
const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), "afx-local-d1-"));
  made.push(dir);
  return dir;
};

/** The D1's SQLite file in `persistTo`, opened directly. */
function sqlite(persistTo: string) {
  const dir = join(persistTo, "v3/d1/miniflare-D1DatabaseObject");
  const [file] = readdirSync(dir).filter((name) => name.endsWith(".sqlite"));
  return new DatabaseSync(join(dir, file!));
}

/** wrangler's own answer for the database in `persistTo`. */
function wrangler(persistTo: string, ...args: string[]) {
  const run = spawnSync(resolve(ROOT, "node_modules/.bin/wrangler"), [...args, "--local", "--persist-to", persistTo], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

// A clean clone builds the migrated template in the first test: wrangler starts a Miniflare per
// migration, minutes when the suite beside it (or a shared machine) holds the cores.
describe("migrate", { timeout: 300_000 }, () => {
  it("gives an empty directory a copy of the database migrated once, with nothing pending", () => {
    const first = scratch();
    migrate(first);
    const templates = resolve(ROOT, "node_modules/.cache/migrated-d1");
    expect(readdirSync(templates).length).toBeGreaterThan(0);
    const second = scratch();
    const started = performance.now();
    migrate(second);
    // A copy, not fifteen Miniflares: well under the seconds wrangler takes.
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(wrangler(second, "d1", "migrations", "apply", "DB")).toContain("No migrations to apply");
    const db = sqlite(second);
    expect({ ...db.prepare("SELECT count(*) AS n FROM leads").get() }).toEqual({ n: 0 });
    db.close();
  });

  it("applies only what is pending to a database that holds data, keeping it", () => {
    const dir = scratch();
    migrate(dir);
    let db = sqlite(dir);
    db.exec("CREATE TABLE kept (id INTEGER PRIMARY KEY); INSERT INTO kept VALUES (7)");
    db.close();
    migrate(dir);
    db = sqlite(dir);
    expect(
      db
        .prepare("SELECT id FROM kept")
        .all()
        .map((row) => ({ ...row })),
    ).toEqual([{ id: 7 }]);
    db.close();
  });

  it(
    "VENTURE_DOMAINS=… npm start on an empty state seeds those websites (and the videos), as the server sees them",
    { timeout: 300_000 },
    () => {
      // npm start and npm run dev hand the seed the variables the server is given.
      for (const script of ["scripts/start.mjs", "scripts/dev.mjs"])
        expect(readFileSync(resolve(ROOT, script), "utf8")).toMatch(/migrate\(.*, seedVars\(\)\);/);
      const env = {
        VENTURE_DOMAINS: "gaas=gaas.example,fiscal-me=fiscalme.example",
        SUBSIDIARY_VIDEOS: "gaas=dQw4w9WgXcQ",
      };
      expect(seedVars(env)).toEqual(env);
      const dir = scratch();
      migrate(dir, seedVars(env));
      const db = sqlite(dir);
      const rows = db.prepare("SELECT id, website, video FROM ventures WHERE website IS NOT NULL ORDER BY id").all();
      expect(rows.map((r) => ({ ...r }))).toEqual([
        { id: "fiscal-me", website: "https://fiscalme.example", video: null },
        { id: "gaas", website: "https://gaas.example", video: "dQw4w9WgXcQ" },
      ]);
      db.close();
    },
  );
});
