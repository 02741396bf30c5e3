// Screenshots of every sitemap page from two checkouts' builds, compared byte for byte (issue 36:
// "screenshots of every page unchanged, or the difference named"): `node
// bench/compare-screenshots.mjs <checkout A> <checkout B>`. Light theme, reduced motion, 1280 and
// 412 px wide, each page hydrated and settled, the viewport then made the page's height (a capture
// beyond the viewport leaves content-visibility's skipped content blank). The PNGs land in
// bench/results/screenshots/{A,B}/; a page whose two files differ is named with the first
// differing row. The pages: the sitemap.xml of checkout A. Not part of `npm run bench`.
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { ROOT } from "../scripts/lib/config.mjs";
import { CHROMIUM_ARGS } from "../scripts/lib/chromium-args.mjs";
import { serveCheckout } from "./lib/checkout.mjs";

const [rootA, rootB] = process.argv.slice(2);
if (!rootA || !rootB) throw new Error("usage: node bench/compare-screenshots.mjs <checkout A> <checkout B>");
const WIDTHS = [1280, 412];
const OUT = join(ROOT, "bench/results/screenshots");

/** Waits until the page has hydrated (the shell's shortcuts listen) and no request is open. */
async function settle(page) {
  await page.waitForFunction(
    () =>
      typeof window.__remixRouter?.navigate === "function" &&
      (!document.querySelector(".shell") || document.documentElement.dataset.shortcuts === "on"),
  );
  await page.waitForLoadState("networkidle");
  await page.evaluate(() => document.fonts.ready);
}

async function shoot(browser, base, path, width, file) {
  const context = await browser.newContext({ viewport: { width, height: 800 }, reducedMotion: "reduce" });
  await context.addInitScript(() => localStorage.setItem("theme", "light"));
  const page = await context.newPage();
  try {
    await page.goto(base + path, { waitUntil: "load" });
    await settle(page);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width, height });
    // Two frames: content-visibility renders what the taller viewport now shows.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await settle(page);
    await page.screenshot({ path: file, animations: "disabled", caret: "hide" });
  } finally {
    await context.close();
  }
}

const servers = { A: await serveCheckout(rootA), B: await serveCheckout(rootB) };
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: CHROMIUM_ARGS,
});
try {
  const sitemap = await (await fetch(`${servers.A.url}/sitemap.xml`)).text();
  const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map(([, loc]) => new URL(loc).pathname);
  if (paths.length === 0) throw new Error("compare-screenshots: no pages in sitemap.xml");
  rmSync(OUT, { recursive: true, force: true });
  const differ = [];
  for (const path of paths) {
    for (const width of WIDTHS) {
      const name = `${path.replace(/\W+/g, "_") || "_"}-${width}.png`;
      const files = {};
      for (const side of ["A", "B"]) {
        mkdirSync(join(OUT, side), { recursive: true });
        files[side] = join(OUT, side, name);
        await shoot(browser, servers[side].url, path, width, files[side]);
      }
      if (!readFileSync(files.A).equals(readFileSync(files.B))) differ.push(`${path} at ${width} px`);
    }
  }
  const total = paths.length * WIDTHS.length;
  console.log(
    `${total - differ.length} of ${total} screenshots byte-identical (${paths.length} pages × ${WIDTHS.join(" and ")} px)`,
  );
  for (const d of differ) console.log(`differs: ${d} (bench/results/screenshots/A and B)`);
  process.exitCode = differ.length ? 1 : 0;
} finally {
  await browser.close();
  await servers.A.stop();
  await servers.B.stop();
}
