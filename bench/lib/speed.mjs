// Blocking time of a page load on a phone-class CPU, from a Chrome trace (issue 36): every
// main-thread task's CPU time × 4 (Lighthouse's mobile slow-down), the part of each over 50 ms
// summed. CPU time, not wall time: on a shared machine a task's wall time includes the time its
// thread waited for a core, which a phone would not see. Used by bench/speed2.bench.mjs and
// bench/speed-suspects.mjs, which set each page beside floors loaded alternately in the same run.

export const SLOWDOWN = 4;
export const LONG_MS = 50;
export const VIEWPORT = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
  hasTouch: true,
};
const CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline"];

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** An event's CPU time × SLOWDOWN, in ms. */
export const x4 = (e) => ((e.tdur ?? e.dur ?? 0) * SLOWDOWN) / 1000;

/** The complete events of the page's renderer main thread: where its document was parsed. */
export function mainThread(events, url) {
  const parse = events.find((e) => e.name === "ParseHTML" && e.args?.beginData?.url?.startsWith(url));
  if (!parse) throw new Error(`speed: no ParseHTML of ${url} in the trace`);
  return events.filter((e) => e.pid === parse.pid && e.tid === parse.tid && e.ph === "X");
}

/** The figures of one traced load: blocking, long tasks, layout and style passes and their costs. */
export function analyse(events, url) {
  const main = mainThread(events, url);
  const tasks = main.filter((e) => e.name === "RunTask");
  const long = tasks.filter((t) => x4(t) > LONG_MS);
  const layouts = main.filter((e) => e.name === "Layout");
  const styles = main.filter((e) => e.name === "UpdateLayoutTree");
  const sum = (list) => list.reduce((s, e) => s + x4(e), 0);
  const top = (list, describe) =>
    [...list]
      .sort((a, b) => x4(b) - x4(a))
      .slice(0, 3)
      .map((e) => `${x4(e).toFixed(0)} ms${describe(e)}`);
  return {
    blocking: long.reduce((s, t) => s + x4(t) - LONG_MS, 0),
    longTasks: long.map((t) => Math.round(x4(t))),
    layoutPasses: layouts.length,
    layoutMs: sum(layouts),
    styleMs: sum(styles),
    topLayouts: top(
      layouts,
      (e) => ` (${e.args?.beginData?.dirtyObjects ?? "?"}/${e.args?.beginData?.totalObjects ?? "?"} objects)`,
    ),
    topStyles: top(styles, (e) => ` (${e.args?.elementCount ?? "?"} elements)`),
  };
}

/**
 * One traced load of `url` in a fresh tab of `context` (a phone's viewport), the trace analysed;
 * `settleMs` after the load event lets hydration and what mounts after it finish.
 */
export async function tracedLoad(browser, context, url, { settleMs }, attempt = 1) {
  try {
    return await tracedLoadOnce(browser, context, url, settleMs);
  } catch (error) {
    // On a loaded machine a trace now and then lacks the document's events: load it again.
    if (attempt >= 3) throw error;
    return tracedLoad(browser, context, url, { settleMs }, attempt + 1);
  }
}

async function tracedLoadOnce(browser, context, url, settleMs) {
  const page = await context.newPage();
  try {
    await browser.startTracing(page, { categories: CATEGORIES });
    await page.goto(url, { waitUntil: "load" });
    await page.waitForTimeout(settleMs);
    const trace = JSON.parse((await browser.stopTracing()).toString("utf8"));
    return analyse(trace.traceEvents ?? trace, url);
  } finally {
    await page.close();
  }
}

/** What the document holds: its elements, its inline SVG icons and their parts. */
export async function documentCounts(context, url) {
  const page = await context.newPage();
  try {
    await page.goto(url, { waitUntil: "load" });
    return await page.evaluate(() => ({
      elements: document.querySelectorAll("*").length,
      svgs: document.querySelectorAll("svg").length,
      svgParts: document.querySelectorAll("svg *").length,
    }));
  } finally {
    await page.close();
  }
}

/**
 * The stylesheet floor of a page (issue 36): the page's own <head> (its inlined stylesheet, its
 * metadata) and the attributes of its <html> and <body> over a one-paragraph body, with no
 * script: what any document with our head costs to lay out.
 */
export function stylesheetFloor(html) {
  const open = (tag) => html.match(new RegExp(`<${tag}(\\s[^>]*)?>`))?.[0] ?? `<${tag}>`;
  const head = (html.match(/<head[^>]*>[\s\S]*?<\/head>/)?.[0] ?? "<head></head>")
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<link[^>]+rel="modulepreload"[^>]*>/g, "");
  return `<!DOCTYPE html>${open("html")}${head}${open("body")}<main class="mx-auto max-w-3xl px-4 py-12"><p>The stylesheet floor: this page's head and stylesheet over one paragraph.</p></main></body></html>`;
}

/** Serves `html` for navigations to `url` in `context` (a floor or a variant of a page). */
export async function serveDocument(context, url, html) {
  await context.route(url, (route) =>
    route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html }),
  );
}
