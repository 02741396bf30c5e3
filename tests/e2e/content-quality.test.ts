import AxeBuilder from "@axe-core/playwright";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PAGES, pages } from "~/content/pages";
import { subsidiaries } from "~/content/subsidiaries";
import { baseURL, hydrated, launch, newPage, screenshot, settled } from "./browser";

// Accessibility (axe-core, both themes) and HTML validity (the W3C Nu checker, vnu-jar) of the
// content pages as served.
const PATHS = [
  ...Object.values(pages)
    .filter((p) => !ADMIN_PAGES.includes(p))
    .map((p) => p.path),
  "/documents?subsidiary=gaas",
  "/documents?subsidiary=unknown",
  "/notifications?view=cleared",
  `/subsidiary/${subsidiaries[0].id}`,
  "/subsidiary/unknown-venture",
];

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(["dark", "light"] as const)("axe-core, %s theme", (theme) => {
  it.each(PATHS)("%s has no violations", async (path) => {
    const { page, context } = await newPage(browser);
    // Never wait on the ventures' sites from the detail page.
    await page.route(/^https:\/\/(?!localhost)/, (route) => route.abort());
    await page.addInitScript((t) => localStorage.setItem("theme", t), theme);
    await page.goto(path);
    await hydrated(page);
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(theme === "dark");
    // Cards fade in; judge contrast on the settled page.
    await settled(page);
    const { violations } = await new AxeBuilder({ page: page as any }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]).analyze();
    const summary = violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    if (summary.length) await screenshot(page, `axe-${theme}${path.replace(/[^a-z0-9]+/gi, "-")}`);
    expect(summary).toEqual([]);
    await context.close();
  });
});

describe("W3C Nu HTML checker", () => {
  it("finds no error on any content page", async () => {
    const dir = mkdtempSync(join(tmpdir(), "afx-vnu-"));
    try {
      const files: Record<string, string> = {};
      for (const [i, path] of PATHS.entries()) {
        const file = join(dir, `page-${i}.html`);
        writeFileSync(file, await (await fetch(`${baseURL()}${path}`)).text());
        files[`file:${file}`] = path;
      }
      const jar = join(process.cwd(), "node_modules/vnu-jar/build/dist/vnu.jar");
      const run = spawnSync("java", ["-jar", jar, "--errors-only", "--format", "json", ...Object.keys(files).map((f) => f.slice(5))], {
        encoding: "utf8",
        maxBuffer: 16 * 1024 * 1024,
      });
      expect(run.error).toBeUndefined();
      const { messages } = JSON.parse(run.stderr || run.stdout) as { messages: { type: string; url: string; message: string; extract?: string }[] };
      const errors = messages
        .filter((m) => m.type === "error")
        .map((m) => `${files[m.url] ?? m.url}: ${m.message} ${m.extract ?? ""}`.trim());
      expect(errors).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
