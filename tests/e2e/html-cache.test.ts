import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { hydrated, launch, newPage } from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

it("a page served from the HTML cache hydrates under its scripts' hashes (no nonce)", async () => {
  const { page, context, consoleErrors } = await newPage(browser);
  let cache: string | undefined;
  let csp: string | null = null;
  for (let i = 0; i < 10 && cache !== "hit"; i++) {
    const response = await page.goto("/legal");
    cache = (await response!.headerValue("server-timing"))?.match(/desc="(\w+)"/)?.[1];
    csp = await response!.headerValue("content-security-policy");
  }
  expect(cache).toBe("hit");
  expect(csp).toMatch(/script-src ('sha256-[^']+' )+'strict-dynamic';/);
  expect(csp).not.toContain("nonce-");
  await hydrated(page);
  // Client navigation still works from a cached page.
  await page.click('a[href="/"]');
  await page.waitForURL((url) => url.pathname === "/");
  expect(consoleErrors).toEqual([]);
  await context.close();
});
