// Lighthouse on the pages issue 8 names (landing, portfolio, blog, documents): Performance with
// its LCP and CLS, Accessibility, Best Practices, SEO. Production build under wrangler dev (React's
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

const PATHS = process.env.LIGHTHOUSE_PATHS?.split(",") ?? ["/", "/portfolio", "/blog", "/documents"];
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
  try {
    for (const path of PATHS) {
      const run = () =>
        lighthouse(`${worker.url}${path}`, { port: chrome.port, output: "html", onlyCategories: CATEGORIES, logLevel: "error" });
      let result = await run();
      // A lost trace (NO_NAVSTART on a loaded machine) is Lighthouse's own hiccup: one retry.
      if (result.lhr.runtimeError) result = await run();
      const { lhr, report } = result;
      if (lhr.runtimeError) failures.push(`${path}: Lighthouse error ${lhr.runtimeError.code}`);
      writeFileSync(join(out, `${path.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "") || "home"}.html`), report);
      const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const lcp = lhr.audits["largest-contentful-paint"]?.numericValue;
      const cls = lhr.audits["cumulative-layout-shift"]?.numericValue;
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
  return {
    title: "Lighthouse 12.8 (mobile preset: simulated slow 4G, 4× CPU slowdown)",
    columns: ["page", "Performance", "LCP", "CLS", "Accessibility", "Best Practices", "SEO"],
    rows,
    notes: [
      failures.length ? `Weighted audits below 1:\n${failures.join("\n")}` : "Every weighted audit passes.",
      "Goals: 100 in each category, LCP < 1.5 s, CLS 0. Performance is simulated from a trace taken on this shared machine.",
    ],
  };
}
