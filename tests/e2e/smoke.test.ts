import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PAGES, pages } from "~/content/pages";
import { STARTING_VENTURES } from "~/content/ventures";
import { hydrated, launch, newPage, screenshot } from "./browser";
import { expectDefined } from "../fixtures/expect-defined";

// Every page of app/content/pages.ts, in a real browser: status, heading, CSP, no console errors.
const ROUTES: { path: string; status: number; heading: string; finalPath?: string }[] = [
  ...Object.values(pages)
    .filter((p) => !ADMIN_PAGES.includes(p))
    .map((p) => ({ path: p.path, status: 200, heading: p.heading })),
  { path: "/home", status: 200, heading: pages.home.heading },
  {
    path: `/subsidiary/${expectDefined(STARTING_VENTURES[0]).id}`,
    status: 200,
    heading: expectDefined(STARTING_VENTURES[0]).name,
  },
  { path: "/subsidiary/unknown-venture", status: 404, heading: "Subsidiary Not Found" },
  { path: "/documents/anything", status: 200, heading: pages.documents.heading, finalPath: "/documents" },
  // Every admin page, for a visitor: the not-found page.
  ...ADMIN_PAGES.map((p) => ({ path: p.path, status: 404, heading: "Page Not Found" })),
  { path: "/any/other/path", status: 404, heading: "Page Not Found" },
];

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe("smoke: every route in Chromium", () => {
  // One page visits every route in turn, as a visitor would: a context per route cost a new
  // renderer and a cold cache on every load. Each route's console errors are its own.
  let page: Page;
  let consoleErrors: string[];
  beforeAll(async () => {
    ({ page, consoleErrors } = await newPage(browser));
  });

  it.each(ROUTES)("$path → $status, '$heading'", async ({ path, status, heading, finalPath }) => {
    consoleErrors.length = 0;
    const response = await page.goto(path);
    expect(response?.status()).toBe(status);
    expect(new URL(page.url()).pathname).toBe(finalPath ?? path);
    await expect(page.locator("h1").first().textContent()).resolves.toBe(heading);
    const csp = await response!.headerValue("content-security-policy");
    // A fresh render's nonce, or a cached page's script hashes (another test may have been first).
    expect(csp).toMatch(/script-src (?:'nonce-[^']+' |(?:'sha256-[^']+' )+)'strict-dynamic';/);
    // Nothing unless named, no inline style but the stylesheet's hash (a refused style is a console error below).
    expect(csp).toMatch(/^default-src 'none'; .*; style-src 'sha256-[^']+';/);
    expect(csp).not.toContain("'unsafe-");
    // The page hydrated: React attached and the client router is live.
    await hydrated(page);
    // Chromium reports the 404 document itself as a failed resource; nothing else may fail.
    const unexpected = consoleErrors.filter((e) => !(status === 404 && /status of 404/.test(e)));
    expect(unexpected).toEqual([]);
    if (path === "/" || path === "/any/other/path") await screenshot(page, `smoke${path.replaceAll("/", "-")}`);
  });
});

describe("styles under a CSP without 'unsafe-inline'", () => {
  it("no violation with a dialog, a tooltip and a toast open, in both themes; the venture colours and the page lock apply", async () => {
    for (const theme of ["dark", "light"]) {
      const { page, context, consoleErrors } = await newPage(browser, { viewport: { width: 1280, height: 800 } });
      await page.addInitScript((light) => {
        if (light) localStorage.setItem("theme", "light");
        document.addEventListener("securitypolicyviolation", (e) =>
          ((window as any).__violations ??= []).push(`${e.violatedDirective}: ${e.sample}`),
        );
      }, theme === "light");
      await page.goto("/portfolio");
      await hydrated(page);
      // The sidebar's FiscalMe tile: its colour class from the catalogue (hsl(142 71% 36%)).
      const tile = page
        .getByTestId("desktop-sidebar")
        .getByRole("link", { name: "FiscalMe" })
        .locator("span[aria-hidden='true']");
      await expect(tile.evaluate((el) => getComputedStyle(el).backgroundColor)).resolves.toBe("rgb(27, 157, 74)");
      // The shortcuts dialog (Radix): the page behind holds still while it is open.
      await page.keyboard.press("Space");
      await page.getByRole("dialog").waitFor();
      await expect(page.evaluate(() => getComputedStyle(document.documentElement).overflow)).resolves.toBe("hidden");
      await page.keyboard.press("Escape");
      await expect.poll(() => page.getByRole("dialog").count()).toBe(0);
      await expect.poll(() => page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe("visible");
      // A toast and a tooltip (both position themselves through style properties set from script).
      await page.keyboard.press("Control+Shift+D");
      await expect.poll(() => page.getByRole("region", { name: "Notifications (F8)" }).locator("li").count()).toBe(1);
      await page.getByTestId("sidebar-trigger").hover();
      await expect.poll(() => page.getByRole("tooltip").count()).toBe(1);
      await expect(page.evaluate(() => (window as any).__violations ?? [])).resolves.toEqual([]);
      expect(consoleErrors).toEqual([]);
      await context.close();
    }
  });
});
