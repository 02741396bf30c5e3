// Local configuration: the variables of wrangler.toml [vars] and .dev.vars, and the
// process environment's overrides of them for one run.
import { appendFileSync, copyFileSync, existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";

export const ROOT = resolve(new URL("../..", import.meta.url).pathname);

/** Creates .dev.vars from .dev.vars.example on a fresh clone. */
export function ensureDevVars() {
  const devVars = resolve(ROOT, ".dev.vars");
  const example = resolve(ROOT, ".dev.vars.example");
  if (!existsSync(devVars)) {
    copyFileSync(example, devVars);
    console.log("Created .dev.vars from .dev.vars.example");
    return;
  }
  // A secret added since .dev.vars was made (MAIL_SECRET, issue 25) gets its example value.
  const have = readFileSync(devVars, "utf8");
  const missing = readFileSync(example, "utf8")
    .split("\n")
    .filter((line) => {
      const name = /^([A-Z][A-Z0-9_]*)\s*=/.exec(line)?.[1];
      return name && !new RegExp(`^${name}\\s*=`, "m").test(have);
    });
  if (missing.length) {
    appendFileSync(devVars, `${have.endsWith("\n") ? "" : "\n"}${missing.join("\n")}\n`);
    console.log(`Added to .dev.vars from .dev.vars.example: ${missing.map((l) => l.split("=")[0]).join(", ")}`);
  }
}

/** The top-level [vars] of wrangler.toml: the local defaults ([env.production.vars] is production's). */
export function localVars() {
  const toml = readFileSync(resolve(ROOT, "wrangler.toml"), "utf8");
  const section = toml.split(/^\[vars\]$/m)[1]?.split(/^\[/m)[0] ?? "";
  return Object.fromEntries([...section.matchAll(/^([A-Z][A-Z0-9_]*)\s*=\s*"([^"]*)"/gm)].map((m) => [m[1], m[2]]));
}

/** Names of every configuration variable the worker reads. */
export function configNames() {
  const example = readFileSync(resolve(ROOT, ".dev.vars.example"), "utf8");
  const secrets = [...example.matchAll(/^([A-Z][A-Z0-9_]*)\s*=/gm)].flatMap(([, name]) => (name ? [name] : []));
  return [...new Set([...Object.keys(localVars()), ...secrets])];
}

/** What the catalogue's seed reads (docs/ventures.md "Seeding"). */
export const SEED_VARS = ["VENTURE_DOMAINS", "SUBSIDIARY_VIDEOS"];

/** .dev.vars' NAME=value lines (quotes around a value dropped). */
function devVarsValues() {
  const file = resolve(ROOT, ".dev.vars");
  if (!existsSync(file)) return {};
  const values = {};
  for (const m of readFileSync(file, "utf8").matchAll(/^([A-Z][A-Z0-9_]*)\s*=\s*(.*?)\s*$/gm)) {
    values[m[1]] = m[2].replace(/^(["'])(.*)\1$/, "$2");
  }
  return values;
}

/**
 * The seed's variables as the server started beside it sees them: the environment over .dev.vars
 * (wrangler.toml's [vars] are the seed's own defaults), so that `VENTURE_DOMAINS=… npm start` on
 * a fresh local state seeds the websites the worker is told of.
 */
export function seedVars(env = process.env) {
  const dev = devVarsValues();
  const out = {};
  for (const name of SEED_VARS) {
    const value = env[name] ?? dev[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** `--var NAME:value` arguments for wrangler dev: the environment wins over the files. */
export function varArgs(overrides = {}) {
  const values = {};
  for (const name of configNames()) {
    if (process.env[name] !== undefined) values[name] = process.env[name];
  }
  Object.assign(values, overrides);
  return Object.entries(values).flatMap(([name, value]) => ["--var", `${name}:${value}`]);
}
