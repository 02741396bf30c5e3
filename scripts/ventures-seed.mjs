// npm run ventures:seed [-- --env production] [-- --persist-to DIR] [-- --var NAME=VALUE ...]
// Puts the nine starting ventures (app/content/ventures.ts) into the portfolio's catalogue in
// D1, with their websites from VENTURE_DOMAINS and their videos from SUBSIDIARY_VIDEOS read this
// once (docs/ventures.md "Seeding"): locally (default .wrangler/state, the one `npm start` uses;
// `npm start`, the browser tests and the benches do it by themselves through
// scripts/lib/local-worker.mjs's migrate) or, once after the deploy that brings migration 0020, in
// production. Idempotent: a venture already in the catalogue is never touched, so an admin's edits stay.
import "./lib/node-version.mjs"; // first: one clear line on a too-old Node
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { runnerImport } from "vite";
import { getPlatformProxy, unstable_readConfig } from "wrangler";
import { aliases } from "./lib/alias.mjs";
import { ROOT } from "./lib/config.mjs";

const WRANGLER = resolve(ROOT, "node_modules/.bin/wrangler");

/** The seed's TypeScript, through Vite's module runner (the same code as the suites'). */
async function load() {
  const nodeEnv = process.env.NODE_ENV;
  const options = { configFile: false, root: ROOT, resolve: { alias: aliases() }, logLevel: "error" };
  try {
    const [seed, content, db, starting] = await Promise.all([
      runnerImport(resolve(ROOT, "app/features/ventures/seed.server.ts"), options),
      runnerImport(resolve(ROOT, "app/content/ventures.ts"), options),
      runnerImport(resolve(ROOT, "app/utils/db.server.ts"), options),
      runnerImport(resolve(ROOT, "app/features/documents/starting.server.ts"), options),
    ]);
    return {
      seed: seed.module,
      content: content.module,
      getDb: db.module.getDb,
      inlineStatement: starting.module.inlineStatement,
    };
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

const seedConfig = (content, vars) => ({
  domains: content.parseDomainConfig(vars.VENTURE_DOMAINS),
  videos: content.parseVideoConfig(vars.SUBSIDIARY_VIDEOS),
});

/** Seeds the local catalogue kept in `persistTo`; `overrides` win over wrangler.toml's [vars]. */
export async function seedLocalVentures(persistTo = resolve(ROOT, ".wrangler/state"), overrides = {}) {
  const { seed, content, getDb } = await load();
  const { env, dispose } = await getPlatformProxy({
    configPath: resolve(ROOT, "wrangler.toml"),
    persist: { path: join(persistTo, "v3") },
    // wrangler.toml's [vars] and the overrides only: the same seed on every machine (and the
    // migrated template keyed on the overrides: scripts/lib/local-worker.mjs).
    envFiles: [],
    remoteBindings: false,
  });
  try {
    await seed.seedVentures(getDb(env), seedConfig(content, { ...env, ...overrides }));
  } finally {
    await dispose();
  }
}

/** Seeds production's catalogue with its [env.production.vars] values (ventures already there are kept). */
async function seedProduction() {
  const config = unstable_readConfig(
    { config: resolve(ROOT, "wrangler.toml"), env: "production" },
    { hideWarnings: true },
  );
  const { seed, content, inlineStatement } = await load();
  const statements = seed.ventureSeedStatements(seedConfig(content, config.vars ?? {}));
  const dir = mkdtempSync(join(tmpdir(), "afx-ventures-"));
  try {
    const file = join(dir, "seed.sql");
    writeFileSync(file, `${statements.map(inlineStatement).join("\n")}\n`);
    const run = spawnSync(
      WRANGLER,
      ["d1", "execute", "DB", "--remote", "--env", "production", "--file", file, "--yes"],
      {
        cwd: ROOT,
        stdio: "inherit",
        env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
      },
    );
    if (run.status !== 0) throw new Error(`wrangler d1 execute failed (${run.status})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      env: { type: "string" },
      "persist-to": { type: "string" },
      var: { type: "string", multiple: true },
    },
  });
  if (values.env && values.env !== "production") {
    console.error("Usage: npm run ventures:seed [-- --env production] [-- --persist-to DIR] [-- --var NAME=VALUE]");
    process.exit(2);
  }
  const overrides = Object.fromEntries(
    (values.var ?? []).map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
  );
  if (values.env) await seedProduction();
  else await seedLocalVentures(values["persist-to"] ? resolve(values["persist-to"]) : undefined, overrides);
  console.log("The portfolio's catalogue holds the starting ventures (any already there were left as they are).");
}
