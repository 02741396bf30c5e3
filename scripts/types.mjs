// `npm run types` writes worker-configuration.d.ts (the worker's `Env`) from wrangler.toml and
// .dev.vars.example; `--check` (part of `npm run typecheck`) fails when the committed file is stale.
//
// Flags: `--env-file .dev.vars.example` names the secrets without reading a developer's .dev.vars
// (same output on every machine); `--strict-vars=false` types vars as `string` (tests and local
// runs override them); `--include-runtime=false` because the runtime types clash with
// @cloudflare/workers-types, which @remix-run/cloudflare's types pull in (docs/decisions/012).
import "./lib/node-version.mjs"; // first: one clear line on a too-old Node
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { ROOT } from "./lib/config.mjs";
import { run } from "./lib/local-worker.mjs";

const FILE = resolve(ROOT, "worker-configuration.d.ts");
const ARGS = ["types", "--include-runtime=false", "--strict-vars=false", "--env-file", ".dev.vars.example"];
const generate = () =>
  run(resolve(ROOT, "node_modules/.bin/wrangler"), ARGS, {
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    stdio: ["ignore", "ignore", "inherit"],
  });

if (process.argv[2] !== "--check") {
  generate();
} else {
  // Regenerated in place (the file's header names its own path), then put back as it was.
  const committed = readFileSync(FILE, "utf8");
  let fresh;
  try {
    generate();
    fresh = readFileSync(FILE, "utf8");
  } finally {
    writeFileSync(FILE, committed);
  }
  if (fresh !== committed) {
    console.error("worker-configuration.d.ts is stale: run `npm run types` and commit the result.");
    process.exit(1);
  }
}
