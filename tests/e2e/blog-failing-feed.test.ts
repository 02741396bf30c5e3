// /blog in Chromium when the feed fails: a worker of its own, reading a feed server this test
// controls. While a client-side navigation waits for the feed the spinner shows; then the single
// placeholder post, never the error state.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pages } from "~/content/pages";
import { PLACEHOLDER_POST } from "~/features/blog/post";
import { startFeedServer } from "../../scripts/lib/sample-feed.mjs";
import { hydrated, launch, screenshot } from "./browser";
import { startOwnWorker, type OwnWorker } from "./own-worker";

type Held = { release: () => void };
const held: Held[] = [];
let onRequest: (() => void) | null = null;
let hold = true;

let browser: Browser;
let feed: Awaited<ReturnType<typeof startFeedServer>>;
let worker: OwnWorker;

beforeAll(async () => {
  feed = await startFeedServer({
    respond: () =>
      new Promise((resolve) => {
        const fail = () => resolve({ status: 500, body: "feed is down" });
        if (!hold) return fail();
        held.push({ release: fail });
        onRequest?.();
      }),
  });
  worker = await startOwnWorker("blog", { BLOG_FEED_URL: feed.url });
  browser = await launch();
  // A second wrangler dev, migrations first, while the suite's own runs: on a loaded two-core
  // machine (a neighbour's CI) that alone took longer than the 120 s hook default.
}, 240_000);

afterAll(async () => {
  for (const h of held) h.release();
  await browser?.close();
  await worker?.stop();
  await feed?.stop();
});

async function open(javaScriptEnabled: boolean) {
  const context = await browser.newContext({ baseURL: worker.url, javaScriptEnabled });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on("console", (msg) => msg.type() === "error" && consoleErrors.push(msg.text()));
  page.on("pageerror", (err) => consoleErrors.push(String(err)));
  return { context, page, consoleErrors };
}

describe("/blog with a failing feed", () => {
  it("shows the spinner while a navigation waits for the feed, then the placeholder post", async () => {
    const { context, page, consoleErrors } = await open(true);
    await page.goto("/");
    await hydrated(page);
    const asked = new Promise<void>((resolve) => (onRequest = resolve));
    await page.evaluate(() => {
      void (window as any).__remixRouter.navigate("/blog");
    });
    await asked;
    // The page shell is there and the posts are still loading.
    await page.waitForURL("**/blog");
    const spinner = page.getByRole("status").filter({ hasText: "Loading posts" });
    await spinner.waitFor({ state: "visible" });
    await expect(page.locator("h1").first().textContent()).resolves.toBe(pages.blog.heading);
    await screenshot(page, "blog-loading");

    for (const h of held.splice(0)) h.release();
    const cards = page.locator("article");
    await cards.first().waitFor();
    expect(await cards.count()).toBe(1);
    await expect(cards.first().locator("h2").textContent()).resolves.toBe(PLACEHOLDER_POST.title);
    await expect(spinner.count()).resolves.toBe(0);
    await expect(page.getByText("Failed to load blog posts").count()).resolves.toBe(0);
    expect(consoleErrors).toEqual([]);
    await screenshot(page, "blog-failing-feed");
    await context.close();
  });

  it("shows the placeholder post with JavaScript off", async () => {
    hold = false;
    const { context, page } = await open(false);
    const response = await page.goto("/blog");
    expect(response?.status()).toBe(200);
    const cards = page.locator("article");
    expect(await cards.count()).toBe(1);
    await expect(cards.first().textContent()).resolves.toContain(PLACEHOLDER_POST.excerpt);
    await expect(page.getByText("Failed to load blog posts").count()).resolves.toBe(0);
    await context.close();
  });
});
