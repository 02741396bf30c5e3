import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PAGES, pages } from "~/content/pages";
import { STARTING_VENTURES } from "~/content/ventures";
import { axeViolations, COLOUR_RULES, WCAG_AA } from "./axe";
import { hydrated, launch, newPage, screenshot, settled } from "./browser";
import { DESKTOP, MOBILE } from "./shell-helpers";
import { expectFits, PHONE } from "./fit";
import { EVENT_FIXTURE } from "./content-fixtures";
import { expectDefined } from "../fixtures/expect-defined";

// The content pages as served, for fit and accessibility (the walks: two files of half the pages
// each, side by side; the shell's open states too) and HTML validity (html-checker.test.ts).
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

/** Every other path, from `part`: the two walk files split the paths and run side by side. */
export const walkPaths = (part: 0 | 1) => PATHS.filter((_, i) => i % 2 === part);

/**
 * One walk over half the content pages, each loaded once, as a visitor on a phone who then turns
 * it into a laptop: it fits a 412 px and a 320 px phone (fit.ts); at 1280 px axe-core finds no
 * violation of WCAG 2.2 AA or best practice in the dark theme (the default), and, switched to the
 * light theme with Ctrl+Shift+T as a visitor would, no colour violation (COLOUR_RULES: the
 * markup is the same). The shell's open states in `shellTheme`, the other file the other theme.
 */
export function describeWalk(part: 0 | 1, shellTheme: "dark" | "light") {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  describe("each content page fits a phone and passes axe-core in both themes", () => {
    // One page walks every path, as a visitor reading through the site: a context per path cost a
    // new renderer and a cold cache on every load.
    let page: Page;
    beforeAll(async () => {
      ({ page } = await newPage(browser, { viewport: PHONE }));
      // Never wait on the ventures' sites from the detail page.
      await page.route(/^https:\/\/(?!localhost)/, (route) => route.abort());
      // Each load starts dark, whatever the last page was switched to.
      await page.addInitScript(() => localStorage.setItem("theme", "dark"));
    });
    const isDark = () => page.evaluate(() => document.documentElement.classList.contains("dark"));

    it.each(walkPaths(part))("%s", async (path) => {
      await page.setViewportSize(PHONE);
      const response = await page.goto(path);
      expect(response?.status(), path).toBeLessThan(500);
      await hydrated(page);
      await expectFits(page, path);

      await page.setViewportSize(DESKTOP);
      expect(await isDark()).toBe(true);
      // Cards fade in; judge contrast on the settled page.
      await settled(page);
      const dark = await axeViolations(page, WCAG_AA);
      if (dark.length) await screenshot(page, `axe-dark${path.replace(/[^a-z0-9]+/gi, "-")}`);
      expect(dark, `dark: ${dark.join("; ")}`).toEqual([]);

      // The light theme's own colours, not a moment of their easing: headless Chromium left an
      // off-screen button's colour transition "finished" a few percent along (the /blog cards).
      // A constructed style sheet: the CSP refuses a <style> of the test's.
      await page.evaluate(() => {
        const sheet = new CSSStyleSheet();
        sheet.replaceSync("*, ::before, ::after { transition: none !important; }");
        document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
      });
      await page.keyboard.press("Control+Shift+T");
      await expect.poll(isDark).toBe(false);
      const light = await axeViolations(page, WCAG_AA, { rules: COLOUR_RULES });
      if (light.length) await screenshot(page, `axe-light${path.replace(/[^a-z0-9]+/gi, "-")}`);
      expect(light, `light: ${light.join("; ")}`).toEqual([]);
    });
  });

  describe("axe-core finds no violations in the shell", () => {
    const scan = (page: Page) => axeViolations(page);

    it(`${shellTheme} theme: desktop expanded and icon, shortcuts dialog, mobile sheet`, async () => {
      const { page, context } = await newPage(browser, { viewport: DESKTOP });
      await context.addInitScript((t) => localStorage.setItem("theme", t), shellTheme);
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
      await mobile.context.addInitScript((t) => localStorage.setItem("theme", t), shellTheme);
      await mobile.page.goto("/");
      await hydrated(mobile.page);
      expect(await scan(mobile.page)).toEqual([]);
      await mobile.page.getByRole("button", { name: "Open menu" }).click();
      await mobile.page.getByRole("dialog", { name: "Menu" }).waitFor();
      await settled(mobile.page);
      expect(await scan(mobile.page)).toEqual([]);
      await screenshot(mobile.page, `shell-mobile-sheet-${shellTheme}`);
      await mobile.context.close();
      // Five axe scans and three page loads: up to a minute on a busy 2-core machine.
    }, 120_000);
  });
}
