// Two (or more) builds of the worker side by side, measured alternately in one run (issue 36 item 4):
// a signed-in member's render of every sitemap page and /admin/leads at BENCH_LEADS leads, as
// isolate CPU (the DevTools profile's busy samples per request) and as the worker's Server-Timing.
//
//   node bench/ab-server.mjs /work/wt-base /work/wt-new [...]
//
// Each argument is a checkout with its own `build/` (run `npm run build` there first); each worker
// runs that checkout's wrangler dev and scripts, on its own copy of one seeded database. Rounds
// alternate the order (A B, B A, …) so a shared machine's load moves every side alike. Not a
// `*.bench.mjs`: `npm run bench` does not run it.
import http from "node:http";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";

const ROOTS = process.argv.slice(2);
if (ROOTS.length < 1) throw new Error("usage: node bench/ab-server.mjs <checkout> [<checkout> …]");
const ROUNDS = Number(process.env.AB_ROUNDS || 6);
const PER_PAGE = Number(process.env.AB_PER_PAGE || 3);
const ADMIN_SAMPLES = Number(process.env.AB_ADMIN_SAMPLES || 10);
const LEADS = Number(process.env.BENCH_LEADS || 100_000);
const TOP = Number(process.env.AB_TOP || 25);
const TOP_TOTAL = Number(process.env.AB_TOP_TOTAL || TOP);
const BOT_UA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

const load = (root, path) => import(pathToFileURL(join(root, path)).href);

function get(url, headers) {
  return new Promise((resolveGet, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () =>
          resolveGet({
            status: res.statusCode,
            timing: String(res.headers["server-timing"] ?? ""),
            body: Buffer.concat(chunks),
          }),
        );
      })
      .on("error", reject);
  });
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))))];
};
const quartiles = (xs) => `${quantile(xs, 0.25).toFixed(2)}–${quantile(xs, 0.75).toFixed(2)}`;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Busy (non-idle, GC included) ms of a profile, and its self time by function. */
const frameKey = (f) =>
  `${f.functionName || "(anonymous)"} ${(f.url || "").replace(/^.*\//, "") || "(native)"}:${f.lineNumber + 1}`;

/**
 * Busy (non-idle, GC included) ms of a profile; adds its self time by function to `selfTimes`,
 * its total (inclusive) time by function to `totals`, and the self time of native frames by
 * their caller to `callers` (who calls `URL`, `encode`…).
 */
function summarise(profile, selfTimes, totals = new Map(), callers = new Map()) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n);
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const f = node.callFrame;
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    if (["(idle)", "(program)", "(root)"].includes(f.functionName)) return;
    busy += dt;
    const key = frameKey(f);
    selfTimes.set(key, (selfTimes.get(key) ?? 0) + dt);
    if (!f.url) {
      const up = parent.get(node.id);
      const k = `${key} ← ${up ? frameKey(up.callFrame) : "?"}`;
      callers.set(k, (callers.get(k) ?? 0) + dt);
    }
    const seen = new Set();
    for (let n = node; n; n = parent.get(n.id)) {
      const k = frameKey(n.callFrame);
      if (seen.has(k)) continue;
      seen.add(k);
      totals.set(k, (totals.get(k) ?? 0) + dt);
    }
  });
  return busy;
}

const main = ROOTS[0];
const { migrate, freePort } = await load(main, "scripts/lib/local-worker.mjs");
const { benchFixtures } = await load(main, "bench/lib/fixtures.mjs");
const { ensureDevVars } = await load(main, "scripts/lib/config.mjs");
ensureDevVars();

const template = mkdtempSync(join(tmpdir(), "afx-ab-d1-"));
migrate(template);
const fixtures = await benchFixtures({ persistTo: template, leads: LEADS });
const sides = [];
try {
  for (const [i, root] of ROOTS.entries()) {
    const persistTo = mkdtempSync(join(tmpdir(), `afx-ab-d1-${i}-`));
    cpSync(template, persistTo, { recursive: true });
    const { startBenchWorker } = await load(root, "bench/lib/fixtures.mjs");
    const { connectCdp, inspectorUrl } = await load(root, "bench/lib/cdp.mjs");
    const inspectorPort = await freePort();
    const worker = await startBenchWorker({ persistTo, fixtures, inspectorPort });
    const cdp = await connectCdp(await inspectorUrl(inspectorPort));
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
    sides.push({
      label: `${String.fromCharCode(65 + i)} ${basename(root)}`,
      root,
      persistTo,
      worker,
      cdp,
      member: await fixtures.memberCookie(worker.url),
      admin: await fixtures.adminCookie(worker.url),
      pages: new Map(),
      selfTimes: new Map(),
      totals: new Map(),
      callers: new Map(),
      adminSelf: new Map(),
      adminTotals: new Map(),
      adminTiming: [],
      adminCpu: [],
      memberTiming: new Map(),
      bodies: new Map(),
    });
  }
  if (process.env.AB_DUMP_SOURCE) {
    // The first side's bundle as the isolate runs it (the profile's line numbers are its lines).
    const { writeFileSync } = await import("node:fs");
    const cdp = sides[0].cdp;
    const scripts = [];
    cdp.on((msg) => msg.method === "Debugger.scriptParsed" && scripts.push(msg.params));
    await cdp.send("Debugger.enable");
    await new Promise((r) => setTimeout(r, 1000));
    for (const p of scripts.filter((p) => p.url.endsWith("server.js"))) {
      const { scriptSource } = await cdp.send("Debugger.getScriptSource", { scriptId: p.scriptId });
      writeFileSync(process.env.AB_DUMP_SOURCE, scriptSource);
    }
    await cdp.send("Debugger.disable");
  }
  const xml = (await get(`${sides[0].worker.url}/sitemap.xml`, {})).body.toString();
  const paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
  const headers = (cookie) => ({ "User-Agent": BOT_UA, Accept: "text/html", Cookie: cookie });

  // Warm every page of every side, and keep one body of each for the comparison of the markup.
  for (const side of sides) {
    for (const path of paths) {
      for (let i = 0; i < 3; i++) {
        const res = await get(side.worker.url + path, headers(side.member));
        if (res.status !== 200) throw new Error(`${side.label} ${path}: ${res.status}`);
        side.bodies.set(path, res.body.toString());
      }
    }
    for (let i = 0; i < 3; i++) await get(`${side.worker.url}/admin/leads`, headers(side.admin));
  }

  if (process.env.AB_DUMP_DIR) {
    const { mkdirSync, writeFileSync } = await import("node:fs");
    for (const [i, side] of sides.entries()) {
      const dir = join(process.env.AB_DUMP_DIR, String(i));
      mkdirSync(dir, { recursive: true });
      for (const [path, body] of side.bodies)
        writeFileSync(join(dir, `${path.replaceAll("/", "_") || "_"}.html`), body);
      writeFileSync(
        join(dir, "admin-leads.html"),
        (await get(`${side.worker.url}/admin/leads`, headers(side.admin))).body,
      );
    }
  }
  for (const side of sides) {
    console.log(
      `${side.label} Server-Timing, member /: ${(await get(side.worker.url + "/", headers(side.member))).timing}`,
    );
    console.log(
      `${side.label} Server-Timing, /admin/leads: ${(await get(`${side.worker.url}/admin/leads`, headers(side.admin))).timing}`,
    );
  }
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? [...sides].reverse() : sides;
    for (const side of order) {
      for (const path of paths) {
        await side.cdp.send("Profiler.start");
        for (let i = 0; i < PER_PAGE; i++) {
          const res = await get(side.worker.url + path, headers(side.member));
          const dur = Number(res.timing.match(/dur=([\d.]+)/)?.[1]);
          if (!side.memberTiming.has(path)) side.memberTiming.set(path, []);
          side.memberTiming.get(path).push(dur);
        }
        const { profile } = await side.cdp.send("Profiler.stop");
        const busy = summarise(profile, side.selfTimes, side.totals, side.callers) / PER_PAGE;
        if (!side.pages.has(path)) side.pages.set(path, []);
        side.pages.get(path).push(busy);
      }
      await side.cdp.send("Profiler.start");
      const n = Math.max(1, Math.round(ADMIN_SAMPLES / 2));
      for (let i = 0; i < n; i++) {
        const res = await get(`${side.worker.url}/admin/leads`, headers(side.admin));
        side.adminTiming.push(Number(res.timing.match(/dur=([\d.]+)/)?.[1]));
      }
      const { profile } = await side.cdp.send("Profiler.stop");
      side.adminCpu.push(summarise(profile, side.adminSelf, side.adminTotals) / n);
    }
  }

  console.log(
    `\n# ${ROUNDS} rounds alternating; ${paths.length} sitemap pages × ${PER_PAGE} member renders per round; /admin/leads at ${LEADS} leads\n`,
  );
  const rows = sides.map((side) => {
    const perPage = paths.map((p) => median(side.pages.get(p)));
    const perPageTiming = paths.map((p) => median(side.memberTiming.get(p)));
    return {
      side,
      cpuMedian: median(perPage),
      cpuWorst: Math.max(...perPage),
      cpuMean: perPage.reduce((a, b) => a + b, 0) / perPage.length,
      timingMedian: median(perPageTiming),
      timingWorst: Math.max(...perPageTiming),
      adminTiming: median(side.adminTiming),
      adminCpu: median(side.adminCpu),
      perPage,
    };
  });
  console.log(
    "| side | member CPU ms/render: median page / worst / mean | member Server-Timing ms: median page / worst | /admin/leads Server-Timing ms median | /admin/leads CPU ms median |",
  );
  console.log("|---|---|---|---|---|");
  for (const r of rows)
    console.log(
      `| ${r.side.label} | ${r.cpuMedian.toFixed(2)} / ${r.cpuWorst.toFixed(2)} / ${r.cpuMean.toFixed(2)} | ${r.timingMedian.toFixed(1)} / ${r.timingWorst.toFixed(1)} | ${r.adminTiming.toFixed(1)} | ${r.adminCpu.toFixed(2)} |`,
    );
  if (rows.length > 1) {
    const [a, ...rest] = rows;
    for (const b of rest) {
      // Paired: each page's render in one round against the same page's in the same round (the
      // two were measured minutes apart at most), then the median of those ratios.
      const ratios = paths.flatMap((p) => a.side.pages.get(p).map((x, i) => b.side.pages.get(p)[i] / x));
      const adminRatios = a.side.adminCpu.map((x, i) => b.side.adminCpu[i] / x);
      const adminTimingRatios = a.side.adminTiming.map((x, i) => b.side.adminTiming[i] / x);
      console.log(
        `\npaired ratios ${b.side.label} ÷ ${a.side.label} (median of page × round pairs): member CPU ${median(ratios).toFixed(3)} (${ratios.length} pairs, quartiles ${quartiles(ratios)}); /admin/leads CPU ${median(adminRatios).toFixed(3)} (quartiles ${quartiles(adminRatios)}), Server-Timing ${median(adminTimingRatios).toFixed(3)} (quartiles ${quartiles(adminTimingRatios)})`,
      );
      console.log(
        `ratio of medians ${b.side.label} ÷ ${a.side.label}: member CPU median ${(b.cpuMedian / a.cpuMedian).toFixed(2)}, worst ${(b.cpuWorst / a.cpuWorst).toFixed(2)}, mean ${(b.cpuMean / a.cpuMean).toFixed(2)}; member Server-Timing ${(b.timingMedian / a.timingMedian).toFixed(2)}; /admin/leads Server-Timing ${(b.adminTiming / a.adminTiming).toFixed(2)}, CPU ${(b.adminCpu / a.adminCpu).toFixed(2)}`,
      );
    }
  }
  console.log("\n| page | " + rows.map((r) => `${r.side.label} CPU ms`).join(" | ") + " |");
  console.log("|---|" + rows.map(() => "---|").join(""));
  paths.forEach((p, i) => console.log(`| ${p} | ${rows.map((r) => r.perPage[i].toFixed(2)).join(" | ")} |`));
  const memberN = ROUNDS * paths.length * PER_PAGE;
  for (const side of sides) {
    for (const [title, self, n] of [
      ["member renders", side.selfTimes, memberN],
      ["/admin/leads", side.adminSelf, side.adminTiming.length],
      ["member renders, TOTAL (inclusive) time", side.totals, memberN],
      ["/admin/leads, TOTAL (inclusive) time", side.adminTotals, side.adminTiming.length],
      ["member renders, native self time by caller", side.callers, memberN],
    ]) {
      if (!process.env.AB_INCLUSIVE && /TOTAL|caller/.test(title)) continue;
      const base = /TOTAL|caller/.test(title) ? (/admin/.test(title) ? side.adminSelf : side.selfTimes) : self;
      const total = [...base.values()].reduce((a, b) => a + b, 0);
      console.log(`\n## ${side.label}: ${title}, top self time (${(total / n).toFixed(2)} ms per request)\n`);
      for (const [k, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, /TOTAL/.test(title) ? TOP_TOTAL : TOP))
        console.log(`${(ms / n).toFixed(3).padStart(7)} ms ${((ms / total) * 100).toFixed(1).padStart(5)} %  ${k}`);
    }
  }
  // The markup: every page's body, side by side (the nonce differs per request, and so do the
  // request ids and times that a page may carry).
  if (sides.length > 1) {
    // Each side has its own port, database and sign-in: its origin, the member's id and dates differ.
    const norm = (html) =>
      html
        .replace(/nonce="[^"]*"/g, 'nonce=""')
        .replace(/localhost:\d+/g, "localhost:PORT")
        .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "UUID")
        .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, "ISO-TIME");
    for (const side of sides.slice(1)) {
      const differ = paths.filter((p) => norm(side.bodies.get(p)) !== norm(sides[0].bodies.get(p)));
      console.log(
        `\nmarkup ${side.label} vs ${sides[0].label}: ${paths.length - differ.length} of ${paths.length} identical (nonce, origin, ids and times aside)${differ.length ? `; differ: ${differ.join(", ")}` : ""}`,
      );
    }
  }
} finally {
  for (const side of sides) {
    side.cdp.close();
    await side.worker.stop();
    rmSync(side.persistTo, { recursive: true, force: true });
  }
  await fixtures.stop?.();
  rmSync(template, { recursive: true, force: true });
}
