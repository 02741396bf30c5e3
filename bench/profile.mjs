// What the main thread does while a page loads on a throttled phone-class CPU (issue 28 goal 2):
// `node bench/profile.mjs /portfolio /blog` (after `npm run build`) loads each page in Chromium
// with a Chrome trace and prints every task whose main-thread CPU time × 4 (Lighthouse's mobile
// CPU slow-down) is over 50 ms, with what it spent its time on: the trace's own events (script
// evaluation, style, layout, HTML parsing) and the JavaScript functions with the most self time
// (sampled). CPU time, not wall time: on a shared machine a task's wall time includes the time the
// thread waited for a core, which no phone would see.
// Not part of `npm run bench` (it judges nothing); PROFILE_URL=http://… profiles a running server.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { migrate } from "../scripts/lib/local-worker.mjs";
import { benchFixtures, startBenchWorker } from "./lib/fixtures.mjs";

const SLOWDOWN = 4;
const LONG_MS = Number(process.env.PROFILE_LONG_MS || 50);
const CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "v8.execute",
  "disabled-by-default-v8.cpu_profiler",
  "blink.user_timing",
];

/** Tasks over LONG_MS and, for each, its time by event name and by JavaScript function. */
export function longTasks(events, url, over = LONG_MS) {
  // The page's renderer main thread: where its document was parsed.
  const parse = events.find((e) => e.name === "ParseHTML" && e.args?.beginData?.url?.startsWith(url));
  const onMain = (e) => !parse || (e.pid === parse.pid && e.tid === parse.tid);
  const tasks = events.filter(
    (e) => e.ph === "X" && e.name === "RunTask" && onMain(e) && (e.tdur * SLOWDOWN) / 1000 > over,
  );
  // JavaScript samples: ProfileChunk events carry nodes and time deltas. V8's sampler writes them
  // from its own thread of the page's renderer process, so they are matched by process only.
  const inRenderer = (e) => !parse || e.pid === parse.pid;
  const nodes = new Map();
  const samples = [];
  const clock = new Map(); // profile id → time of its last sample
  for (const e of events.filter((x) => x.name === "ProfileChunk" && inRenderer(x))) {
    const data = e.args.data;
    for (const n of data.cpuProfile?.nodes ?? []) nodes.set(`${e.id}:${n.id}`, n);
    let t =
      clock.get(e.id) ??
      events.find((x) => x.name === "Profile" && x.id === e.id && inRenderer(x))?.args?.data?.startTime ??
      0;
    (data.cpuProfile?.samples ?? []).forEach((id, i) => {
      t += data.timeDeltas?.[i] ?? 0;
      samples.push({ id: `${e.id}:${id}`, ts: t });
    });
    clock.set(e.id, t);
  }
  samples.sort((a, b) => a.ts - b.ts);
  return tasks.map((task) => {
    const end = task.ts + task.dur;
    const byEvent = new Map();
    for (const e of events) {
      if (e.ph !== "X" || e === task || !onMain(e) || e.ts < task.ts || e.ts + (e.dur ?? 0) > end) continue;
      if (
        [
          "FunctionCall",
          "EvaluateScript",
          "v8.compile",
          "v8.compileModule",
          "v8.evaluateModule",
          "ParseHTML",
          "UpdateLayoutTree",
          "Layout",
          "Paint",
          "PrePaint",
          "Layerize",
          "MajorGC",
          "MinorGC",
          "EventDispatch",
          "TimerFire",
          "FireAnimationFrame",
          "RunMicrotasks",
          "ParseAuthorStyleSheet",
          "HitTest",
        ].includes(e.name)
      ) {
        byEvent.set(e.name, (byEvent.get(e.name) ?? 0) + ((e.tdur ?? e.dur) * SLOWDOWN) / 1000);
      }
    }
    const byFunction = new Map();
    let prev = null;
    for (const s of samples) {
      if (s.ts < task.ts || s.ts > end) continue;
      if (prev) {
        const n = nodes.get(prev.id);
        const f = n?.callFrame;
        const name = f
          ? `${f.functionName || "(anonymous)"} ${(f.url || "").replace(/^.*\//, "")}:${f.lineNumber ?? ""}`
          : "?";
        byFunction.set(name, (byFunction.get(name) ?? 0) + (s.ts - prev.ts) / 1000); // wall time of samples
      }
      prev = s;
    }
    const top = (m, n) =>
      [...m]
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([k, v]) => `${k} ${v.toFixed(0)}`);
    return {
      start: task.ts,
      ms: (task.tdur * SLOWDOWN) / 1000,
      wall: task.dur / 1000,
      events: top(byEvent, 6),
      functions: top(byFunction, 8),
    };
  });
}

/** Loads `url` (a phone's viewport) with a trace; its tasks over `over` ms of CPU time × SLOWDOWN. */
export async function profilePage(browser, url, { over = LONG_MS } = {}) {
  const page = await browser.newPage({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
  });
  await browser.startTracing(page, { categories: CATEGORIES });
  await page.goto(url, { waitUntil: "load" });
  await page.waitForTimeout(4000);
  const trace = JSON.parse((await browser.stopTracing()).toString("utf8"));
  await page.close();
  const events = trace.traceEvents ?? trace;
  const navStart = events.find((e) => e.name === "navigationStart")?.ts ?? events[0].ts;
  return longTasks(events, url, over).map((t) => ({ ...t, start: (t.start - navStart) / 1000 }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const paths = process.argv.slice(2).length ? process.argv.slice(2) : ["/"];
  let worker = null;
  let fixtures = null;
  const persistTo = mkdtempSync(join(tmpdir(), "afx-profile-d1-"));
  try {
    let base = process.env.PROFILE_URL;
    if (!base) {
      migrate(persistTo);
      fixtures = await benchFixtures({ persistTo, leads: 0 });
      worker = await startBenchWorker({ persistTo, fixtures });
      base = worker.url;
    }
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu"],
    });
    try {
      for (const path of paths) {
        // A first load warms the HTML cache and the HTTP cache's compiled code, as a second visit.
        await profilePage(browser, base + path);
        const tasks = await profilePage(browser, base + path);
        console.log(`\n## ${path}: ${tasks.length} tasks over ${LONG_MS} ms of CPU time × ${SLOWDOWN}`);
        for (const t of tasks) {
          console.log(
            `- at ${t.start.toFixed(0)} ms: ${t.ms.toFixed(0)} ms CPU × ${SLOWDOWN} (wall ${t.wall.toFixed(0)} ms unthrottled)`,
          );
          console.log(`    events (ms CPU × ${SLOWDOWN}): ${t.events.join(", ")}`);
          console.log(`    js self (ms, unthrottled wall): ${t.functions.join(", ")}`);
        }
      }
    } finally {
      await browser.close();
    }
  } finally {
    await worker?.stop();
    await fixtures?.stop?.();
    rmSync(persistTo, { recursive: true, force: true });
  }
}
