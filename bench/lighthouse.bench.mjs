// Lighthouse (Accessibility, Best Practices, SEO, and Performance for reference) on the pages
// issue 6 names: landing, portfolio, a subsidiary, documents. Production build under wrangler dev
// with a fresh D1, Debian's Chromium (CHROMIUM_PATH), mobile emulation as Lighthouse's default.
// `npm run bench -- lighthouse`; the full reports land in bench/results/lighthouse/.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { ROOT } from "../scripts/lib/config.mjs";
import { build, freePort, migrate, startWorker } from "../scripts/lib/local-worker.mjs";

const PATHS = process.env.LIGHTHOUSE_PATHS?.split(",") ?? ["/", "/portfolio", "/subsidiary/gaas", "/documents"];
const CATEGORIES = ["accessibility", "best-practices", "seo", "performance"];

export default async function lighthouseBench() {
  if (process.env.SKIP_BUILD !== "1") build();
  const persistTo = mkdtempSync(join(tmpdir(), "afx-lighthouse-d1-"));
  migrate(persistTo);
  const port = await freePort();
  // SITE_URL is this server, so canonical links point at the audited origin, as in production.
  const worker = await startWorker({ port, persistTo, vars: { SITE_URL: `http://localhost:${port}` }, stdio: "ignore" });
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
      rows.push([path, ...CATEGORIES.map(score)]);
      for (const id of CATEGORIES.slice(0, 3)) {
        for (const ref of lhr.categories[id].auditRefs) {
          const audit = lhr.audits[ref.id];
          if (ref.weight > 0 && audit.score !== null && audit.score < 1) failures.push(`${path} ${id}: ${audit.id} (${audit.title})`);
        }
      }
    }
  } finally {
    await chrome.kill();
    await worker.stop();
    rmSync(persistTo, { recursive: true, force: true });
  }
  return {
    title: "Lighthouse 12.8 (mobile emulation)",
    columns: ["page", "Accessibility", "Best Practices", "SEO", "Performance"],
    rows,
    notes: [
      failures.length ? `Audits below 1:\n${failures.join("\n")}` : "Every weighted Accessibility, Best Practices and SEO audit passes.",
      "Performance is for reference only: the machine is shared and wrangler dev is not the edge.",
    ],
  };
}
