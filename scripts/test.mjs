// npm test: every test. Builds the production bundle (the worker tests import it and the browser
// tests serve it), then runs the workerd suite and the Chromium suite, and prints one total line.
import "./lib/node-version.mjs"; // first: one clear line on a too-old Node
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { ROOT } from "./lib/config.mjs";
import { build } from "./lib/local-worker.mjs";

const vitest = resolve(ROOT, "node_modules/.bin/vitest");
const suites = [
  { name: "node", config: "vitest.node.config.ts" },
  { name: "worker", config: "vitest.config.ts" },
  { name: "e2e", config: "vitest.e2e.config.ts" },
];
const only = process.argv[2];

const seconds = (since) => ((performance.now() - since) / 1000).toFixed(1);
const times = [];
if (process.env.SKIP_BUILD !== "1") {
  const started = performance.now();
  build();
  times.push(["build", seconds(started)]);
}
mkdirSync(resolve(ROOT, "test-results"), { recursive: true });

let passed = 0;
let failed = 0;
let skipped = 0;
let ok = true;
for (const suite of suites.filter((s) => !only || s.name === only)) {
  const report = resolve(ROOT, "test-results", `${suite.name}.json`);
  const started = performance.now();
  const result = spawnSync(
    vitest,
    ["run", "--config", suite.config, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`],
    { cwd: ROOT, stdio: "inherit" },
  );
  try {
    const json = JSON.parse(readFileSync(report, "utf8"));
    passed += json.numPassedTests;
    failed += json.numFailedTests;
    skipped += json.numPendingTests + json.numTodoTests;
    if (json.numTotalTests === 0) ok = false;
  } catch {
    ok = false;
  }
  if (result.status !== 0) ok = false;
  times.push([suite.name, seconds(started)]);
}
console.log(`\nTimes: ${times.map(([name, s]) => `${name} ${s} s`).join(", ")}`);
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(ok && failed === 0 ? 0 : 1);
