// npm test: every test. First the two suites that need no build (unit: pure modules in plain Node;
// server: route modules' loaders and actions and server features in workerd with a real D1) while
// the production bundle builds (the worker suite imports it and the browser suite serves it), then
// the Node suite beside the workerd suite, then the Chromium suite; it prints each stage's time, the
// total and one count line. `npm run test:<suite>` runs one suite, and builds only for a suite that
// needs the build. `npm run test:fast` is the inner loop: unit and server without tests/mail/ (real
// SMTP conversations, ~20 s of waiting) and with the Node suite's source-only checks, in seconds
// and without a build.
import "./lib/node-version.mjs"; // first: one clear line on a too-old Node
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { ROOT } from "./lib/config.mjs";
import { BUILD_COMMAND } from "./lib/local-worker.mjs";

const vitest = resolve(ROOT, "node_modules/.bin/vitest");
// Node's on-disk compile cache for every Node process the suites start (vitest's workers, each run
// of the wrangler CLI, the deploy script): wrangler starts dozens of times, each start ~25 % less
// CPU once its modules are cached; the Node suite took 14 % less CPU starting from an empty cache.
process.env.NODE_COMPILE_CACHE ??= resolve(ROOT, "node_modules/.cache/node-compile");
// Suites in one stage run side by side. The Node suite mostly waits on the wrangler processes it
// starts (deploy.test.ts) and the workerd suite on workerd starting each file's isolate, so
// together they keep both cores busy; the browser suite keeps them busy alone and runs after.
const stages = [
  [
    { name: "unit", config: "vitest.unit.config.ts", build: false },
    { name: "server", config: "vitest.server.config.ts", build: false },
  ],
  [
    { name: "worker", config: "vitest.config.ts", build: true },
    { name: "node", config: "vitest.node.config.ts", build: true },
  ],
  [{ name: "e2e", config: "vitest.e2e.config.ts", build: true }],
];
const only = process.argv[2] === "fast" ? null : process.argv[2];
const fast = process.argv[2] === "fast";
if (fast) {
  stages.splice(1);
  // The inner loop leaves the SMTP conversations (tests/mail/) to `npm test` and `test:server`,
  // and runs the Node suite's source-only checks (a missing route test, Pages row, import-graph
  // break: tests/node/no-build.mjs) in the unit suite.
  stages[0][1].filters = ["tests/server/"];
  process.env.FAST = "1";
}

const seconds = (since) => ((performance.now() - since) / 1000).toFixed(1);
const runStarted = performance.now();
const times = [];
let built = process.env.SKIP_BUILD === "1";
mkdirSync(resolve(ROOT, "test-results"), { recursive: true });

let passed = 0;
let failed = 0;
let skipped = 0;
let ok = true;
// Named again after the count: CI keeps the tail of the output, and a failure printed minutes
// earlier in a suite's own output is gone from it.
const failures = [];

/**
 * Runs a command; `live`, it prints as it goes, else its output is held for the caller to print
 * whole, so that two commands running side by side never interleave their lines.
 */
function spawnHeld(command, args, live) {
  const started = performance.now();
  const child = spawn(command, args, { cwd: ROOT, stdio: live ? "inherit" : ["ignore", "pipe", "pipe"] });
  const held = [];
  child.stdout?.on("data", (chunk) => held.push(chunk));
  child.stderr?.on("data", (chunk) => held.push(chunk));
  return new Promise((done) => child.on("close", (status) => done({ status, held, seconds: seconds(started) })));
}

/** Runs one suite, its JSON report in test-results/ (the first suite of a stage prints live). */
async function run(suite, live) {
  const report = resolve(ROOT, "test-results", `${suite.name}.json`);
  const args = [
    "run",
    "--config",
    suite.config,
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
    ...(suite.filters ?? []),
  ];
  return { suite, report, ...(await spawnHeld(vitest, args, live)) };
}

// The build starts with the run, beside the unit suite (which needs none): building keeps one
// core busy, the unit suite the other. A stage that needs the build waits for it.
const building =
  !built && stages.flat().some((s) => s.build && (!only || s.name === only))
    ? spawnHeld(...BUILD_COMMAND, false)
    : null;

for (const stage of stages) {
  const suites = stage.filter((s) => !only || s.name === only);
  if (!built && suites.some((s) => s.build)) {
    const { status, held, seconds: took } = await building;
    process.stdout.write(Buffer.concat(held));
    times.push(["build", took]);
    if (status !== 0) {
      console.error(`\nThe build failed (exit ${status}): no suite that needs it ran.`);
      process.exit(1);
    }
    built = true;
  }
  // In stage order, so the times line reads like the suites' order in the output.
  for (const { suite, report, status, held, seconds: took } of await Promise.all(
    suites.map((s, i) => run(s, i === 0)),
  )) {
    if (held.length) process.stdout.write(Buffer.concat(held));
    tally(report, status);
    times.push([suite.name, took]);
  }
}

function tally(report, status) {
  try {
    const json = JSON.parse(readFileSync(report, "utf8"));
    passed += json.numPassedTests;
    failed += json.numFailedTests;
    skipped += json.numPendingTests + json.numTodoTests;
    for (const file of json.testResults ?? []) {
      const name = file.name.replace(`${ROOT}/`, "");
      const tests = (file.assertionResults ?? []).filter((t) => t.status === "failed");
      for (const test of tests) failures.push(`${name} > ${test.fullName}`);
      // A file that failed outside any test (an import, a hook) has no failed test to name.
      if (file.status === "failed" && !tests.length) failures.push(`${name} (${(file.message ?? "").split("\n")[0]})`);
    }
    if (json.numTotalTests === 0) ok = false;
  } catch {
    ok = false;
  }
  if (status !== 0) ok = false;
}
// Suites of one stage overlap (and the build the unit suite): the total is the run's own clock.
console.log(`\nTimes: ${times.map(([name, s]) => `${name} ${s} s`).join(", ")}; total ${seconds(runStarted)} s`);
if (failures.length) console.log(`\nFailed:\n${failures.map((f) => `  ${f}`).join("\n")}`);
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(ok && failed === 0 ? 0 : 1);
