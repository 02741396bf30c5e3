// The CPU time of the heaviest legitimate requests, from which production's `[limits] cpu_ms`
// is set (docs/decisions/061-deploy-token.md): `node bench/cpu-limit.mjs` (after `npm run
// build`; CPU_LEADS leads, default 100 000, CPU_SAMPLES runs of each request, default 5).
// CPU time, not wall time: the CSV streams, so its wall time is the client's and the network's
// pace. Two figures per request:
// - process (the one the limit is set from): the workerd process's user + system CPU
//   (/proc/<pid>/stat) from request to last byte, minus the same process's CPU over an idle
//   interval as long. An upper bound: it also holds the local D1's SQLite work (at Cloudflare a
//   query runs in the database, outside the worker's CPU time), HTTP parsing and V8's
//   background threads. Counted in clock ticks (10 ms).
// - isolate: V8's sampling profiler over the worker's isolate (DevTools protocol), busy samples
//   only. Its time deltas are wall-clock between samples, so on a shared machine it also counts
//   the time the thread waited for a core, plus the profiler's own cost: read it as a ceiling.
// Not part of `npm run bench` (it judges nothing).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureDevVars } from "../scripts/lib/config.mjs";
import { freePort, migrate } from "../scripts/lib/local-worker.mjs";
import { topFunctions, profileWorker } from "./lib/cpu-profile.mjs";
import { benchFixtures, startBenchWorker } from "./lib/fixtures.mjs";
import { findWorkerd, processCpuMs, TICK_MS } from "./lib/worker-cpu.mjs";

const LEADS = Number(process.env.CPU_LEADS || 100_000);
const SAMPLES = Number(process.env.CPU_SAMPLES || 5);
const BOT_UA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

/** One request read to the end: status, bytes and wall time. */
async function fetchAll(url, headers) {
  const started = performance.now();
  const res = await fetch(url, { headers });
  const bytes = (await res.arrayBuffer()).byteLength;
  return { status: res.status, bytes, wall: performance.now() - started };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(name, url, headers, { workerd, inspectorPort }) {
  await fetchAll(url, headers); // compiles the route, warms D1's pages
  const isolate = [];
  const proc = [];
  let last;
  for (let i = 0; i < SAMPLES; i++) {
    const before = processCpuMs(workerd);
    last = await fetchAll(url, headers);
    const used = processCpuMs(workerd) - before;
    // The same process idle for as long (the cron, wrangler's own polling), subtracted.
    const idleBefore = processCpuMs(workerd);
    await new Promise((r) => setTimeout(r, last.wall));
    proc.push(Math.max(0, used - (processCpuMs(workerd) - idleBefore)));
    const { result, profile } = await profileWorker(inspectorPort, () => fetchAll(url, headers));
    if (result.status !== 200) throw new Error(`${name} answered ${result.status}`);
    isolate.push(topFunctions(profile).busy);
  }
  return [
    name,
    last.bytes.toLocaleString("en-US"),
    median(isolate).toFixed(0),
    Math.max(...isolate).toFixed(0),
    median(proc).toFixed(0),
    Math.max(...proc).toFixed(0),
    last.wall.toFixed(0),
  ];
}

ensureDevVars();
const persistTo = mkdtempSync(join(tmpdir(), "afx-cpu-"));
migrate(persistTo);
const fixtures = await benchFixtures({ persistTo, leads: LEADS });
const inspectorPort = await freePort();
const worker = await startBenchWorker({ persistTo, fixtures, inspectorPort });
try {
  const workerd = findWorkerd(worker.child.pid);
  if (!workerd) throw new Error("workerd process not found");
  const cookie = await fixtures.adminCookie(worker.url);
  const doc = { "User-Agent": BOT_UA, Accept: "text/html", Cookie: cookie };
  const context = { workerd, inspectorPort };
  const rows = [];
  for (const [name, path, headers] of [
    ["GET /admin/leads.csv (every confirmed lead)", "/admin/leads.csv", { Cookie: cookie }],
    ["GET /admin/leads (whole document)", "/admin/leads", doc],
    ["GET /admin/leads?status=all&source=blog", "/admin/leads?status=all&source=blog", doc],
    ["GET /api/leads/stats", "/api/leads/stats", { Cookie: cookie }],
    ["GET / (home, no cache: a crawler's first visit)", "/?cpu-limit=1", { "User-Agent": BOT_UA, Accept: "text/html" }],
  ]) {
    rows.push(await measure(name, `${worker.url}${path}`, headers, context));
  }
  console.log(
    `\nCPU time per request with ${LEADS.toLocaleString("en-US")} leads, ${SAMPLES} runs each (ms; process ticks are ${TICK_MS} ms)\n`,
  );
  console.log(
    "| request | bytes | isolate median | isolate max | workerd process median | workerd process max | wall (last run) |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
} finally {
  await worker.stop();
  await fixtures.stop?.();
  rmSync(persistTo, { recursive: true, force: true });
}
