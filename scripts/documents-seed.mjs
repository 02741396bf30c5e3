// npm run documents:seed [-- --env production] [-- --persist-to DIR]
// Puts the group's starting documents (scripts/fact-sheets.ts) into an EMPTY document library:
// locally (default .wrangler/state, the one `npm start` uses; `npm start` and the test suites do
// it by themselves through scripts/lib/local-worker.mjs) or, once after the first deploy, in
// production. A library that holds any document is left as it is.
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

/** The drawing and the seed's TypeScript, through Vite's module runner (the same code as the tests'). */
async function load() {
  // Vite sets NODE_ENV=development when it is unset; put it back for the processes started after.
  const nodeEnv = process.env.NODE_ENV;
  const options = { configFile: false, root: ROOT, resolve: { alias: aliases() }, logLevel: "error" };
  try {
    const [sheets, seed, db] = await Promise.all([
      runnerImport(resolve(ROOT, "scripts/fact-sheets.ts"), options),
      runnerImport(resolve(ROOT, "app/features/documents/starting.server.ts"), options),
      runnerImport(resolve(ROOT, "app/utils/db.server.ts"), options),
    ]);
    return { files: await sheets.module.renderStartingDocuments(), seed: seed.module, getDb: db.module.getDb };
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

/** Seeds the local library kept in `persistTo` (wrangler dev's --persist-to) when it is empty. */
export async function seedLocalDocuments(persistTo = resolve(ROOT, ".wrangler/state")) {
  const { files, seed, getDb } = await load();
  const { env, dispose } = await getPlatformProxy({
    configPath: resolve(ROOT, "wrangler.toml"),
    persist: { path: join(persistTo, "v3") },
    envFiles: [],
    remoteBindings: false,
  });
  try {
    return await seed.seedLibrary(getDb(env), env.DOCUMENTS, files);
  } finally {
    await dispose();
  }
}

function wrangler(args, { capture = false } = {}) {
  const run = spawnSync(WRANGLER, args, {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    stdio: ["inherit", capture ? "pipe" : "inherit", "inherit"],
  });
  if (run.status !== 0) throw new Error(`wrangler ${args.slice(0, 3).join(" ")} failed (${run.status})`);
  return run.stdout;
}

/** Seeds production's library (its DB and DOCUMENTS bucket) once: refused when it holds a document. */
async function seedProduction() {
  const config = unstable_readConfig(
    { config: resolve(ROOT, "wrangler.toml"), env: "production" },
    { hideWarnings: true },
  );
  const bucket = config.r2_buckets.find((b) => b.binding === "DOCUMENTS")?.bucket_name;
  if (!bucket) throw new Error("[[env.production.r2_buckets]] has no DOCUMENTS bucket");
  const count = JSON.parse(
    wrangler(
      [
        "d1",
        "execute",
        "DB",
        "--remote",
        "--env",
        "production",
        "--json",
        "--command",
        "SELECT count(*) AS n FROM documents",
      ],
      {
        capture: true,
      },
    ),
  )[0].results[0].n;
  if (count > 0) return "not-empty";
  const { files, seed } = await load();
  const hashed = await seed.hashFiles(files);
  const dir = mkdtempSync(join(tmpdir(), "afx-documents-"));
  try {
    for (const f of hashed) {
      const file = join(dir, f.sha256);
      writeFileSync(file, f.bytes);
      wrangler([
        "r2",
        "object",
        "put",
        `${bucket}/${f.objectKey}`,
        "--file",
        file,
        "--content-type",
        "application/pdf",
        "--remote",
      ]);
    }
    const sql = join(dir, "seed.sql");
    writeFileSync(sql, `${seed.seedStatements(hashed).map(seed.inlineStatement).join("\n")}\n`);
    wrangler(["d1", "execute", "DB", "--remote", "--env", "production", "--file", sql, "--yes"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return "seeded";
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { env: { type: "string" }, "persist-to": { type: "string" } } });
  if (values.env && values.env !== "production") {
    console.error("Usage: npm run documents:seed [-- --env production] [-- --persist-to DIR]");
    process.exit(2);
  }
  const result = values.env
    ? await seedProduction()
    : await seedLocalDocuments(values["persist-to"] ? resolve(values["persist-to"]) : undefined);
  console.log(
    result === "seeded"
      ? "Seeded the document library with the group's starting documents."
      : "The document library already holds documents: nothing seeded.",
  );
}
