// Lighthouse on every page of the sitemap (issue 15 goal 3; LIGHTHOUSE_PATHS=/,/blog for a few):
// Performance with its LCP and CLS, Accessibility, Best Practices, SEO. Production build under wrangler dev (React's
// production build, as deployed) with a fresh D1 and a local sample feed, Debian's Chromium
// (CHROMIUM_PATH), Lighthouse's default mobile preset (simulated throttling).
// `npm run bench -- lighthouse`; the full reports land in bench/results/lighthouse/.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { ROOT } from "../scripts/lib/config.mjs";
import { build, migrate } from "../scripts/lib/local-worker.mjs";
import { benchFixtures, startBenchWorker } from "./lib/fixtures.mjs";
import { goal } from "./lib/goals.mjs";

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];

export default async function lighthouseBench() {
  if (process.env.SKIP_BUILD !== "1") build();
  const persistTo = mkdtempSync(join(tmpdir(), "afx-lighthouse-d1-"));
  migrate(persistTo);
  const fixtures = await benchFixtures({ persistTo, leads: 0 });
  const worker = await startBenchWorker({ persistTo, fixtures });
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"],
  });
  const out = resolve(ROOT, "bench/results/lighthouse");
  mkdirSync(out, { recursive: true });
  const rows = [];
  const failures = [];
  const measured = [];
  let version = "";
  try {
    const sitemap = await (await fetch(`${worker.url}/sitemap.xml`)).text();
    const paths = process.env.LIGHTHOUSE_PATHS?.split(",") ?? [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
    for (const path of paths) {
      const run = () =>
        lighthouse(`${worker.url}${path}`, { port: chrome.port, output: "html", onlyCategories: CATEGORIES, logLevel: "error" });
      let result = await run();
      // A lost trace (NO_NAVSTART on a loaded machine) is Lighthouse's own hiccup: one retry.
      if (result.lhr.runtimeError) result = await run();
      const { lhr, report } = result;
      version = lhr.lighthouseVersion;
      if (lhr.runtimeError) failures.push(`${path}: Lighthouse error ${lhr.runtimeError.code}`);
      writeFileSync(join(out, `${path.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "") || "home"}.html`), report);
      const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const lcp = lhr.audits["largest-contentful-paint"]?.numericValue;
      const cls = lhr.audits["cumulative-layout-shift"]?.numericValue;
      measured.push({ path, performance: score("performance"), lcp: lcp ?? Infinity, cls: cls ?? Infinity });
      rows.push([
        path,
        score("performance"),
        lcp === undefined ? "n/a" : `${(lcp / 1000).toFixed(2)} s`,
        cls === undefined ? "n/a" : cls.toFixed(3),
        ...CATEGORIES.slice(1).map(score),
      ]);
      for (const id of CATEGORIES) {
        for (const ref of lhr.categories[id].auditRefs) {
          const audit = lhr.audits[ref.id];
          if (ref.weight > 0 && audit.score !== null && audit.score < 1) failures.push(`${path} ${id}: ${audit.id} (${audit.title})${audit.displayValue ? `: ${audit.displayValue}` : ""}`);
        }
      }
    }
  } finally {
    await chrome.kill();
    await worker.stop();
    await fixtures.stop?.();
    rmSync(persistTo, { recursive: true, force: true });
  }
  const worst = (key, pick) => measured.reduce((a, b) => (pick(b[key], a[key]) ? b : a), measured[0]);
  const perf = worst("performance", (x, y) => x < y);
  const lcp = worst("lcp", (x, y) => x > y);
  const cls = worst("cls", (x, y) => x > y);
  const pages = `${measured.length} pages`;
  return {
    goals: measured.length
      ? [
          goal(`3. Lighthouse mobile Performance 100, every sitemap page (${pages}; worst ${perf.path})`, "97 (/portfolio; 4 pages measured)", String(perf.performance), perf.performance / 100, perf.performance === 100),
          goal(`3. LCP < 1.0 s, every sitemap page (worst ${lcp.path})`, "1.25–1.95 s (/portfolio)", `${(lcp.lcp / 1000).toFixed(2)} s`, lcp.lcp / 1000, lcp.lcp < 1000),
          goal(`3. CLS 0, every sitemap page (worst ${cls.path})`, "0 (4 pages)", cls.cls.toFixed(3), NaN, cls.cls === 0),
        ]
      : [],
    title: `Lighthouse ${version} (mobile preset: simulated slow 4G, 4× CPU slowdown)`,
    columns: ["page", "Performance", "LCP", "CLS", "Accessibility", "Best Practices", "SEO"],
    rows,
    notes: [
      failures.length ? `Weighted audits below 1:\n${failures.join("\n")}` : "Every weighted audit passes.",
      "Goals: 100 in each category, LCP < 1.0 s, CLS 0 (issue 15). Performance is simulated from a trace taken on this shared machine.",
    ],
  };
}
