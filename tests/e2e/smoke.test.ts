import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PAGES, pages } from "~/content/pages";
import { subsidiaries } from "~/content/subsidiaries";
import { hydrated, launch, newPage, screenshot } from "./browser";

// Every page of app/content/pages.ts, in a real browser: status, heading, CSP, no console errors.
const ROUTES: { path: string; status: number; heading: string; finalPath?: string }[] = [
  ...Object.values(pages)
    .filter((p) => !ADMIN_PAGES.includes(p))
    .map((p) => ({ path: p.path, status: 200, heading: p.heading })),
  { path: "/home", status: 200, heading: pages.home.heading },
  { path: `/subsidiary/${subsidiaries[0].id}`, status: 200, heading: subsidiaries[0].name },
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
  it.each(ROUTES)("$path → $status, '$heading'", async ({ path, status, heading, finalPath }) => {
    const { page, context, consoleErrors } = await newPage(browser);
    const response = await page.goto(path);
    expect(response?.status()).toBe(status);
    expect(new URL(page.url()).pathname).toBe(finalPath ?? path);
    await expect(page.locator("h1").first().textContent()).resolves.toBe(heading);
    const csp = await response!.headerValue("content-security-policy");
    // A fresh render's nonce, or a cached page's script hashes (another test may have been first).
    expect(csp).toMatch(/script-src (?:'nonce-[^']+' |(?:'sha256-[^']+' )+)'strict-dynamic';/);
    // The page hydrated: React attached and the client router is live.
    await hydrated(page);
    // Chromium reports the 404 document itself as a failed resource; nothing else may fail.
    const unexpected = consoleErrors.filter((e) => !(status === 404 && /status of 404/.test(e)));
    expect(unexpected).toEqual([]);
    if (path === "/" || path === "/any/other/path") await screenshot(page, `smoke${path.replaceAll("/", "-")}`);
    await context.close();
  });
});
