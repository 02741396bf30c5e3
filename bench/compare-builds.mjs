// Two builds' page loads side by side, alternating, in one run (issue 36: how decision 068 was
// measured): `node bench/compare-builds.mjs <checkout A> <checkout B> / /help`. Each checkout
// serves its own build (`npm run build` in it first) through its own bench fixtures. Per load, a
// Chrome trace of the renderer's main thread at a phone's viewport, CPU time × 4: blocking (each
// task's part over 50 ms, summed), the JavaScript's own time (script evaluation, function calls,
// microtasks, timers and events, each counted once, not nested) and its tasks over 50 ms; median
// of COMPARE_ROUNDS (7) loads each. COLD=1 loads each in a new browser context: no HTTP or code
// cache, a first visit as Lighthouse makes it; otherwise one context per build, warmed once.
// Not part of `npm run bench`: it judges nothing on its own.
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS } from "../scripts/lib/chromium-args.mjs";
import { serveCheckout } from "./lib/checkout.mjs";
import { analyse, LONG_MS, mainThread, median, VIEWPORT, x4 } from "./lib/speed.mjs";

const [rootA, rootB, ...rest] = process.argv.slice(2);
if (!rootA || !rootB) throw new Error("usage: node bench/compare-builds.mjs <checkout A> <checkout B> [paths…]");
const paths = rest.length ? rest : ["/"];
const ROUNDS = Number(process.env.COMPARE_ROUNDS || 7);
const COLD = process.env.COLD === "1";
const CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute"];
const SCRIPT = new Set([
  "FunctionCall",
  "v8.evaluateModule",
  "v8.compileModule",
  "EvaluateScript",
  "RunMicrotasks",
  "TimerFire",
  "FireAnimationFrame",
  "EventDispatch",
]);
function figures(events, url) {
  const main = mainThread(events, url);
  let script = 0;
  let end = -1;
  for (const e of main.filter((x) => SCRIPT.has(x.name)).sort((a, b) => a.ts - b.ts)) {
    if (e.ts < end) continue; // nested in the one before
    script += x4(e);
    end = e.ts + e.dur;
  }
  const scriptLong = main.filter(
    (t) =>
      t.name === "RunTask" &&
      x4(t) > LONG_MS &&
      main.some((e) => SCRIPT.has(e.name) && e.ts >= t.ts && e.ts < t.ts + t.dur),
  );
  return { blocking: analyse(events, url).blocking, script, scriptLong: scriptLong.map((t) => Math.round(x4(t))) };
}

const builds = { A: await serveCheckout(rootA), B: await serveCheckout(rootB) };
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: CHROMIUM_ARGS,
});
try {
  const warm = { A: await browser.newContext(VIEWPORT), B: await browser.newContext(VIEWPORT) };
  async function load(which, path, attempt = 1) {
    const context = COLD ? await browser.newContext(VIEWPORT) : warm[which];
    const page = await context.newPage();
    try {
      await browser.startTracing(page, { categories: CATEGORIES });
      await page.goto(builds[which].url + path, { waitUntil: "load" });
      await page.waitForTimeout(2500); // hydration and what mounts after it
      const trace = JSON.parse((await browser.stopTracing()).toString("utf8"));
      return figures(trace.traceEvents ?? trace, builds[which].url);
    } catch (error) {
      // On a loaded machine a trace now and then lacks the document's events.
      if (attempt >= 3) throw error;
      return load(which, path, attempt + 1);
    } finally {
      await page.close().catch(() => {});
      if (COLD) await context.close();
    }
  }
  console.log(`${COLD ? "cold" : "warm"} loads, CPU time × 4, median of ${ROUNDS}; A ${rootA}, B ${rootB}`);
  for (const path of paths) {
    if (!COLD) for (const w of ["A", "B"]) await load(w, path);
    const runs = { A: [], B: [] };
    for (let r = 0; r < ROUNDS; r++) for (const w of r % 2 ? ["B", "A"] : ["A", "B"]) runs[w].push(await load(w, path));
    for (const w of ["A", "B"]) {
      const m = (key) => Math.round(median(runs[w].map((l) => l[key])));
      const tasks = runs[w].map((l) => `[${l.scriptLong.join(" ")}]`).join("");
      console.log(
        `${path} ${w}: blocking ${m("blocking")} ms · script ${m("script")} ms (${runs[w].map((l) => Math.round(l.script)).join(", ")}) · script tasks > 50 ms ${tasks}`,
      );
    }
  }
} finally {
  await browser.close();
  await builds.A.stop();
  await builds.B.stop();
}
