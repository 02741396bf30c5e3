import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PAGES, pages } from "~/content/pages";
import { STARTING_VENTURES } from "~/content/ventures";
import { axeViolations, WCAG_AA } from "./axe";
import { hydrated, launch, newPage, screenshot, settled } from "./browser";
import { DESKTOP, MOBILE } from "./shell-helpers";
import { EVENT_FIXTURE } from "./content-fixtures";
import { expectDefined } from "../fixtures/expect-defined";

// The content pages as served, for accessibility (axe-core, one file per theme so that the two
// run side by side; the shell's open states too) and HTML validity (html-checker.test.ts).
export const PATHS = [
  ...Object.values(pages)
    .filter((p) => !ADMIN_PAGES.includes(p))
    .map((p) => p.path),
  "/documents?subsidiary=gaas",
  "/documents?subsidiary=unknown",
  "/notifications?view=cleared",
  `/subsidiary/${expectDefined(STARTING_VENTURES[0]).id}`,
  "/subsidiary/unknown-venture",
  `/events/${EVENT_FIXTURE.slug}`,
];

/** axe-core over every content page and the shell's open states in `theme`: no violation of WCAG 2.2 AA or best practice. */
export function describeAxe(theme: "dark" | "light") {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  describe(`axe-core, ${theme} theme`, () => {
    // One page walks every path, as a visitor reading through the site: the scan is what each test
    // checks, and a context per path cost a new renderer and a cold cache on every load.
    let page: Page;
    beforeAll(async () => {
      ({ page } = await newPage(browser));
      // Never wait on the ventures' sites from the detail page.
      await page.route(/^https:\/\/(?!localhost)/, (route) => route.abort());
      await page.addInitScript((t) => localStorage.setItem("theme", t), theme);
    });

    it.each(PATHS)("%s has no violations", async (path) => {
      await page.goto(path);
      await hydrated(page);
      expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(theme === "dark");
      // Cards fade in; judge contrast on the settled page.
      await settled(page);
      const summary = await axeViolations(page, WCAG_AA);
      if (summary.length) await screenshot(page, `axe-${theme}${path.replace(/[^a-z0-9]+/gi, "-")}`);
      expect(summary, summary.join("; ")).toEqual([]);
    });
  });

  describe("axe-core finds no violations in the shell", () => {
    const scan = (page: Page) => axeViolations(page);

    it(`${theme} theme: desktop expanded and icon, shortcuts dialog, mobile sheet`, async () => {
      const { page, context } = await newPage(browser, { viewport: DESKTOP });
      await context.addInitScript((t) => localStorage.setItem("theme", t), theme);
      await page.goto("/investors");
      await hydrated(page);
      expect(await scan(page)).toEqual([]);
      await page.getByTestId("sidebar-trigger").click();
      await page.getByTestId("sidebar-trigger").click(); // icon
      await settled(page);
      expect(await scan(page)).toEqual([]);
      await page.locator("h1").first().click();
      await page.keyboard.press("Space");
      await page.getByRole("dialog", { name: "Keyboard Shortcuts" }).waitFor();
      await settled(page);
      expect(await scan(page)).toEqual([]);
      await context.close();

      const mobile = await newPage(browser, { viewport: MOBILE });
      await mobile.context.addInitScript((t) => localStorage.setItem("theme", t), theme);
      await mobile.page.goto("/");
      await hydrated(mobile.page);
      expect(await scan(mobile.page)).toEqual([]);
      await mobile.page.getByRole("button", { name: "Open menu" }).click();
      await mobile.page.getByRole("dialog", { name: "Menu" }).waitFor();
      await settled(mobile.page);
      expect(await scan(mobile.page)).toEqual([]);
      await screenshot(mobile.page, `shell-mobile-sheet-${theme}`);
      await mobile.context.close();
      // Five axe scans and three page loads: up to a minute on a busy 2-core machine.
    }, 120_000);
  });
}
