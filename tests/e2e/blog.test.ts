// /blog in Chromium against the worker of global-setup, which reads the local sample feed.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pages } from "~/content/pages";
import { SAMPLE_TITLES } from "../../scripts/lib/sample-feed.mjs";
import { hydrated, launch, newPage, screenshot, visitorPage } from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});
const visit = visitorPage(() => browser);

/** The cards as a reader sees them. */
async function expectPosts(page: Page) {
  // After a client navigation the URL changes before React has rendered the new page.
  await expect.poll(() => page.locator("h1").first().textContent()).toBe(pages.blog.heading);
  const cards = page.locator("article");
  await cards.first().waitFor();
  expect(await cards.count()).toBe(10);
  const first = cards.first();
  await expect(first.locator("h2").textContent()).resolves.toBe(SAMPLE_TITLES[0]);
  await expect(first.locator("time").textContent()).resolves.toBe("June 1, 2025");
  await expect(first.textContent()).resolves.toMatch(/\d+ min read/);
  // The cover image loaded (from the site itself).
  await expect
    .poll(() => first.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);
  const readMore = first.getByRole("link", { name: /Read More/ });
  await expect(readMore.getAttribute("href")).resolves.toBe("https://newsletter.example.com/p/post-1");
  await expect(readMore.getAttribute("target")).resolves.toBe("_blank");
  await expect(readMore.getAttribute("rel")).resolves.toBe("noopener");
  await expect(page.getByText("Failed to load blog posts").count()).resolves.toBe(0);
}

describe("/blog with a feed", () => {
  it("shows the 10 newest posts as cards", async () => {
    const { page, consoleErrors } = await visit();
    const response = await page.goto("/blog");
    expect(response?.status()).toBe(200);
    await hydrated(page);
    await expectPosts(page);
    expect(consoleErrors).toEqual([]);
    await screenshot(page, "blog");
  });

  it("shows the posts with JavaScript off", async () => {
    const { page, context } = await newPage(browser, { javaScriptEnabled: false });
    const response = await page.goto("/blog");
    expect(response?.status()).toBe(200);
    await expectPosts(page);
    await screenshot(page, "blog-no-js");
    await context.close();
  });

  it("shows the posts after a client-side navigation", async () => {
    const { page, consoleErrors } = await visit();
    await page.goto("/");
    await hydrated(page);
    await page.evaluate(() => (window as any).__remixRouter.navigate("/blog"));
    await page.waitForURL("**/blog");
    await expectPosts(page);
    expect(consoleErrors).toEqual([]);
  });
});
