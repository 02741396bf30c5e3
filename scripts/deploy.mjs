// `npm run deploy`: production, non-interactively and in order, stopping at the first step that
// fails (docs/deploy.md; docs/decisions/023-deploy.md):
//   1. check:production (scripts/lib/production-check.mjs): every problem named, nothing uploaded;
//   2. the worker's secrets are all set (unless --secrets-file supplies them: a first deploy);
//   3. the build;
//   4. the database's pending migrations, applied without a prompt, then listed again: a
//      migration that failed (or an apply that was declined) leaves one pending, and the script
//      refuses in one line rather than ship new code on the old schema;
//   5. `wrangler deploy --env production`.
// Options: --local --persist-to <dir> (step 4 against a local D1; implies --dry-run, for the tests
// and the README walk-through), --dry-run (`wrangler deploy --dry-run`: bundles, uploads nothing),
// --skip-build, --config <wrangler file>, --secrets-file <file> (passed to check and deploy),
// --domains-attached <host,...> (unattended runs: see customDomainsRefusal).
import "./lib/node-version.mjs"; // first: one clear line on a too-old Node
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { unstable_readConfig } from "wrangler";
import { ROOT } from "./lib/config.mjs";
import { customDomains, productionProblems, readSecretsFile } from "./lib/production-check.mjs";

const WRANGLER = resolve(ROOT, "node_modules/.bin/wrangler");
const { values: options } = parseArgs({
  options: {
    local: { type: "boolean", default: false },
    "persist-to": { type: "string" },
    "dry-run": { type: "boolean", default: false },
    "skip-build": { type: "boolean", default: false },
    config: { type: "string", default: resolve(ROOT, "wrangler.toml") },
    "secrets-file": { type: "string" },
    "domains-attached": { type: "string", default: "" },
  },
});
const dryRun = options["dry-run"] || options.local;
const config = resolve(options.config);
const secretsFile = options["secrets-file"] && resolve(options["secrets-file"]);

/** The one line a refusal ends with, and exit 1: nothing after this step ran. */
function refuse(line) {
  console.error(`\n✘ Not deployed: ${line}`);
  process.exit(1);
}
const step = (name) => console.log(`\n▶ ${name}`);

/** wrangler with the production environment and this configuration file; no telemetry. */
function wrangler(args, { capture = false, env = {} } = {}) {
  const result = spawnSync(WRANGLER, [...args, "--env", "production", "--config", config], {
    cwd: ROOT,
    encoding: "utf8",
    stdio: capture ? ["ignore", "pipe", "pipe"] : "inherit",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", ...env },
  });
  if (capture) {
    process.stdout.write(result.stdout ?? "");
    process.stderr.write(result.stderr ?? "");
  }
  return result;
}

const database = options.local
  ? ["DB", "--local", ...(options["persist-to"] ? ["--persist-to", resolve(options["persist-to"])] : [])]
  : ["DB", "--remote"];

/** The database's pending migrations, by file name (wrangler prints them as a table). */
function pendingMigrations() {
  const listed = wrangler(["d1", "migrations", "list", ...database], { capture: true });
  if (listed.status !== 0)
    refuse("the database's migrations could not be listed (wrangler's error above); nothing was changed.");
  if (/No migrations to apply/.test(listed.stdout)) return [];
  const names = [...listed.stdout.matchAll(/[\w.-]+\.sql/g)].map((m) => m[0]);
  if (!names.length) refuse("wrangler's list of pending migrations could not be read (above); nothing was changed.");
  return names;
}

/**
 * A non-interactive `wrangler deploy` (stdout not a terminal: CI) attaches every Custom Domain of
 * the configuration and takes over an existing DNS record of the same name without asking
 * (wrangler's publishCustomDomains). Unattended runs therefore name the domains already attached
 * (--domains-attached); a new one is attached once from a terminal, where wrangler asks.
 */
function customDomainsRefusal() {
  if (dryRun || process.stdout.isTTY) return null;
  const attached = options["domains-attached"]
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const fresh = customDomains(unstable_readConfig({ config, env: "production" }, { hideWarnings: true })).filter(
    (d) => !attached.includes(d),
  );
  return fresh.length
    ? `unattended, wrangler would take over any DNS record of ${fresh.join(", ")} without asking; attach them once with \`npm run deploy\` from a terminal, then list them in --domains-attached.`
    : null;
}

step("Checking the production configuration (npm run check:production)");
const secrets = secretsFile ? readSecretsFile(secretsFile) : undefined;
const problems = await productionProblems({ config, secrets });
if (problems.length) {
  for (const problem of problems) console.error(`  - ${problem}`);
  refuse(`the production configuration has ${problems.length} problem(s), listed above; nothing was changed.`);
}
const domains = customDomainsRefusal();
if (domains) refuse(domains);

if (!options.local && !secretsFile) {
  step("Checking the worker's secrets (wrangler secret list)");
  const listed = wrangler(["secret", "list", "--format", "json"], { capture: true });
  if (listed.status !== 0)
    refuse("the worker's secrets could not be listed (above); on a first deploy pass them with --secrets-file <file>.");
  let names;
  try {
    names = JSON.parse(listed.stdout.slice(listed.stdout.indexOf("["))).map((s) => s.name);
  } catch {
    refuse("wrangler's list of the worker's secrets could not be read (above); nothing was changed.");
  }
  const have = new Set(names);
  const required = unstable_readConfig({ config, env: "production" }, { hideWarnings: true }).secrets?.required ?? [];
  const missing = required.filter((name) => !have.has(name));
  if (missing.length)
    refuse(
      `secret(s) ${missing.join(", ")} not set (\`npx wrangler secret put NAME --env production\`); nothing was changed.`,
    );
}

if (!options["skip-build"]) {
  step("Building (remix vite:build)");
  const built = spawnSync(resolve(ROOT, "node_modules/.bin/remix"), ["vite:build"], { cwd: ROOT, stdio: "inherit" });
  if (built.status !== 0) refuse("the build failed (above); nothing was changed.");
}

step(`Migrating the ${options.local ? "local" : "production"} database`);
const pending = pendingMigrations();
if (pending.length) {
  // CI=true: wrangler's confirm() answers its fallback ("yes") instead of prompting; the list
  // after it, not the exit code, says whether everything applied (a declined prompt exits 0).
  wrangler(["d1", "migrations", "apply", ...database], { env: { CI: "true" } });
  const left = pendingMigrations();
  if (left.length)
    refuse(
      `migration ${left[0]} did not apply (wrangler's error above); the previous version keeps serving on the schema before it.`,
    );
  console.log(`Applied ${pending.length} migration(s): ${pending.join(", ")}`);
}

step(`Deploying${dryRun ? " (dry run: bundled, nothing uploaded)" : ""} (wrangler deploy --env production)`);
// NODE_ENV pinned: wrangler writes the caller's value into the bundle's `process.env.NODE_ENV`,
// and a shell's "development" would ship React's development builds (scripts/lib/sizes.mjs).
const deployed = wrangler(
  ["deploy", ...(dryRun ? ["--dry-run"] : []), ...(secretsFile ? ["--secrets-file", secretsFile] : [])],
  {
    env: { NODE_ENV: "production" },
  },
);
if (deployed.status !== 0)
  refuse(
    `wrangler deploy failed (above)${pending.length ? "; the migrations above are applied, the previous version keeps serving" : ""}.`,
  );
console.log(`\n✔ ${dryRun ? "Dry run complete" : "Deployed"}.`);
