// Bar `speed2` (issue 36): each sitemap page's blocking time on a phone-class CPU beside two floors
// loaded alternately with it in the same run, so the shared machine's noise falls on all three:
// - the same page with JavaScript off (the document alone: parse, style, layout, paint),
// - the stylesheet floor: the page's own <head> and inlined stylesheet over one paragraph.
// Blocking: each main-thread task's CPU time × 4, its part over 50 ms, summed (bench/lib/speed.mjs);
// median of SPEED_LOADS (default 5) loads per variant at a phone's viewport in Debian's Chromium.
// "page − floor" is what our document and script cost; "our JS adds" is page − (JS off).
// `npm run bench -- speed2`; SPEED_PATHS=/,/blog for a few; SKIP_BUILD=1 to reuse the build.
// BEFORE_HTML=dir: a fourth variant, "before", each page's document as another build rendered it
// (dir/<path>.html, the path's non-word runs as "_"), with JavaScript, loaded in the same rounds: a
// change's before and after in one run. Its scripts must be in this build's build/client/assets
// (copy the other build's assets beside these: their names are content hashes).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { ensureDevVars } from "../scripts/lib/config.mjs";
import { build, migrate } from "../scripts/lib/local-worker.mjs";
import { benchFixtures, startBenchWorker } from "./lib/fixtures.mjs";
import { goal } from "./lib/goals.mjs";
import { documentCounts, median, serveDocument, stylesheetFloor, tracedLoad, VIEWPORT } from "./lib/speed.mjs";
import { CHROMIUM_ARGS } from "../scripts/lib/chromium-args.mjs";

export const SPEED_PATHS = ["/", "/portfolio", "/blog", "/documents", "/investors", "/subsidiary/fiscal-me", "/help"];
const LOADS = Math.max(1, Number(process.env.SPEED_LOADS || 5));
// Issue 36's figures (page − stylesheet floor, the same measurement on main before this bench).
const ISSUE_36 = {
  "/": 234,
  "/portfolio": 264,
  "/blog": 241,
  "/documents": 153,
  "/investors": 149,
  "/subsidiary/fiscal-me": 209,
  "/help": 204,
};

const ms = (x) => `${Math.round(x)} ms`;

/**
 * Loads every variant of every path LOADS times, alternating (the order rotates each round), and
 * returns path → variant → loads. `variants`: [{ name, js, html?: (pageHtml, path) => html }]; a variant
 * with `html` is served from that text at the page's URL with a query naming it.
 */
export async function alternate(browser, base, paths, variants, { loads = LOADS, log = () => {} } = {}) {
  const contexts = {
    true: await browser.newContext(VIEWPORT),
    false: await browser.newContext({ ...VIEWPORT, javaScriptEnabled: false }),
  };
  const urls = new Map();
  for (const path of paths) {
    const html = await (await fetch(`${base}${path}`, { headers: { Accept: "text/html" } })).text();
    for (const v of variants) {
      let url = `${base}${path}`;
      if (v.html) {
        url += `${path.includes("?") ? "&" : "?"}speed-variant=${encodeURIComponent(v.name)}`;
        await serveDocument(contexts[v.js], url, v.html(html, path));
      }
      urls.set(`${path} ${v.name}`, url);
    }
  }
  const results = new Map(paths.map((p) => [p, new Map(variants.map((v) => [v.name, []]))]));
  const load = (path, v) =>
    tracedLoad(browser, contexts[v.js], urls.get(`${path} ${v.name}`), { settleMs: v.js ? 3000 : 1000 });
  // A first load of each warms the HTML cache and the HTTP cache, as a second visit.
  for (const path of paths) for (const v of variants) await load(path, v);
  for (let round = 0; round < loads; round++) {
    for (const path of paths) {
      const order = variants.map((_, i) => variants[(i + round) % variants.length]);
      for (const v of order)
        results
          .get(path)
          .get(v.name)
          .push(await load(path, v));
    }
    log(`round ${round + 1}/${loads}`);
  }
  return { results, contexts, urls };
}

export default async function speed2Bench() {
  ensureDevVars();
  if (process.env.SKIP_BUILD !== "1") build();
  const persistTo = mkdtempSync(join(tmpdir(), "afx-speed2-d1-"));
  migrate(persistTo);
  const fixtures = await benchFixtures({ persistTo, leads: 0 });
  const worker = await startBenchWorker({ persistTo, fixtures });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
  const paths = process.env.SPEED_PATHS?.split(",") ?? SPEED_PATHS;
  const variants = [
    { name: "page", js: true },
    { name: "JS off", js: false },
    { name: "floor", js: false, html: stylesheetFloor },
  ];
  const before = process.env.BEFORE_HTML;
  if (before)
    variants.push({
      name: "before",
      js: true,
      html: (_, path) => readFileSync(join(before, `${path.replace(/\W+/g, "_") || "_"}.html`), "utf8"),
    });
  const counts = new Map();
  let results;
  try {
    ({ results } = await alternate(browser, worker.url, paths, variants, {
      log: (m) => process.stderr.write(`speed2: ${m}\n`),
    }));
    const context = await browser.newContext(VIEWPORT);
    for (const path of paths) counts.set(path, await documentCounts(context, `${worker.url}${path}`));
    await context.close();
  } finally {
    await browser.close();
    await worker.stop();
    await fixtures.stop?.();
    rmSync(persistTo, { recursive: true, force: true });
  }

  const rows = [];
  const costs = [];
  const summary = [];
  for (const path of paths) {
    const r = results.get(path);
    const blocking = (name) => median(r.get(name).map((l) => l.blocking));
    const [page, off, floor] = ["page", "JS off", "floor"].map(blocking);
    const runs = r.get("page").map((l) => Math.round(l.blocking));
    const longs = (name) => median(r.get(name).map((l) => l.longTasks.length));
    summary.push({ path, over: page - floor, extraLong: longs("page") - longs("floor") });
    rows.push([
      path,
      `${ms(page)} (${runs.join(", ")})`,
      ms(off),
      ms(floor),
      ms(page - floor),
      ms(page - off),
      ISSUE_36[path] ? ms(ISSUE_36[path]) : "",
      `${longs("page")} / ${longs("JS off")} / ${longs("floor")}`,
      ...(before ? [`${ms(blocking("before") - floor)} (${longs("before")} tasks > 50 ms)`] : []),
    ]);
    // The page's median load (by blocking) names its costs.
    const sorted = [...r.get("page")].sort((a, b) => a.blocking - b.blocking);
    const typical = sorted[Math.floor((sorted.length - 1) / 2)];
    const offLoads = r.get("JS off");
    const c = counts.get(path);
    costs.push([
      path,
      String(c.elements),
      `${c.svgs} (${c.svgParts})`,
      `${median(r.get("page").map((l) => l.layoutPasses))} / ${median(offLoads.map((l) => l.layoutPasses))}`,
      `${ms(median(r.get("page").map((l) => l.layoutMs)))} / ${ms(median(offLoads.map((l) => l.layoutMs)))}`,
      `${ms(median(r.get("page").map((l) => l.styleMs)))} / ${ms(median(offLoads.map((l) => l.styleMs)))}`,
      typical.topLayouts.join(", "),
      typical.topStyles.join(", "),
    ]);
  }
  const worst = summary.reduce((a, b) => (b.over > a.over ? b : a), summary[0]);
  const extra = summary.filter((s) => s.extraLong > 0);
  const goals = summary.length
    ? [
        goal(
          `speed2: blocking page − stylesheet floor ≤ 50 ms, every sitemap page (CPU time × 4, median of ${LOADS}; worst ${worst.path})`,
          "issue 28: TBT 240–1 100 ms; issue 36: 149–264 ms",
          ms(worst.over),
          worst.over / 50,
          summary.every((s) => s.over <= 50),
        ),
        goal(
          "speed2: no task over 50 ms that the stylesheet floor does not also have (median counts)",
          "issue 28: tasks of 60–180 ms",
          extra.length ? extra.map((s) => `${s.path} +${s.extraLong}`).join(", ") : "none",
          NaN,
          extra.length === 0,
        ),
      ]
    : [];
  return [
    {
      title: `speed2 (issue 36): blocking time at CPU × 4, median of ${LOADS} loads alternating with two floors in the same run`,
      columns: [
        "page",
        "blocking with JS (loads)",
        "same page, JS off",
        "stylesheet floor",
        "page − floor",
        "our JS adds",
        "issue 36: page − floor",
        "tasks > 50 ms: page / JS off / floor",
        ...(before ? ["before − floor, same run"] : []),
      ],
      rows,
      notes: [
        "Blocking: the part over 50 ms of each main-thread task's CPU time × 4, summed over the load and 3 s after it (1 s with JavaScript off), at a phone's viewport (412 × 823). CPU time: what a phone 4× slower would spend, without this shared machine's waits for a core.",
        "stylesheet floor: the page's own <head> with its inlined stylesheet over a one-paragraph body, no script. our JS adds: page − the same page with JavaScript off. Lighthouse's own score: `npm run bench -- lighthouse`.",
      ],
    },
    {
      goals,
      title: "speed2: what each document holds and what laying it out costs (CPU time × 4; JS on / JS off, medians)",
      columns: [
        "page",
        "elements",
        "inline SVG (parts)",
        "layout passes",
        "layout",
        "style recalc",
        "largest layouts (dirty/total objects), median load",
        "largest style recalcs",
      ],
      rows: costs,
    },
  ];
}
