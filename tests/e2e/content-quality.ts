import AxeBuilder from "@axe-core/playwright";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PAGES, pages } from "~/content/pages";
import { subsidiaries } from "~/content/subsidiaries";
import { hydrated, launch, newPage, screenshot, settled } from "./browser";

// The content pages as served, for accessibility (axe-core, one file per theme so that the two
// run side by side) and HTML validity (html-checker.test.ts).
export const PATHS = [
  ...Object.values(pages)
    .filter((p) => !ADMIN_PAGES.includes(p))
    .map((p) => p.path),
  "/documents?subsidiary=gaas",
  "/documents?subsidiary=unknown",
  "/notifications?view=cleared",
  `/subsidiary/${subsidiaries[0].id}`,
  "/subsidiary/unknown-venture",
];

/** axe-core over every content page in `theme`: no violation of WCAG 2.2 AA or best practice. */
export function describeAxe(theme: "dark" | "light") {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  describe(`axe-core, ${theme} theme`, () => {
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
}
