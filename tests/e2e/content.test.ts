import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STARTING_DOCUMENTS as documents } from "~/content/documents";
import { formatBytes } from "~/features/documents/library";
import { startingVenture } from "~/content/ventures";
import { baseURL, downloadBytes, hydrated, launch, newPage, screenshot, settled, visitorPage } from "./browser";
import { TEST_VIDEO } from "./content-fixtures";
import { TEST_DOMAINS, WITHOUT_DOMAIN } from "../fixtures/venture-domains";
import { expectDefined } from "../fixtures/expect-defined";

// The content pages' parts in Chromium: card flips, the detail frame, downloads. Each page against
// the catalogues, with JavaScript on and off: content-js.test.ts and content-nojs.test.ts.
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});
const visit = visitorPage(() => browser);

describe("card flip (JavaScript)", () => {
  it("flips to a youtube-nocookie player loaded only then, sends 'card_flip', and comes back", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    const playerRequests: string[] = [];
    await page.route("https://www.youtube-nocookie.com/**", (route) => {
      playerRequests.push(route.request().url());
      return route.fulfill({ contentType: "text/html", body: "<!doctype html><title>player</title>" });
    });
    await page.addInitScript(() => {
      (window as any).analyticsCalls = [];
      (window as any).gtag = (...args: unknown[]) => (window as any).analyticsCalls.push(args);
    });
    await page.goto("/portfolio");
    const s = startingVenture(TEST_VIDEO.ventureId)!;
    const card = page.locator("article").filter({ hasText: s.name });
    expect(await page.locator("iframe").count()).toBe(0);
    expect(playerRequests).toEqual([]);
    // Cards without a video have no Video badge.
    await expect(page.getByRole("link", { name: /^Video/ }).count()).resolves.toBe(1);

    await hydrated(page); // before it, a click on 'Video' is a plain navigation (the no-JS fallback)
    await card.getByRole("link", { name: /^Video/ }).click();
    await expect(card.getAttribute("data-flipped")).resolves.toBe("true");
    const frame = card.locator("iframe");
    await expect(frame.getAttribute("src")).resolves.toBe(
      `https://www.youtube-nocookie.com/embed/${TEST_VIDEO.videoId}?autoplay=1`,
    );
    await expect(page.evaluate(() => (window as any).analyticsCalls)).resolves.toEqual([
      ["event", "card_flip", { event_category: "engagement", event_label: s.name }],
    ]);
    const back = card.getByRole("button", { name: "← Back" });
    await expect(back.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await settled(page);
    await screenshot(page, "content-card-flipped");
    await back.click();
    await expect(card.getAttribute("data-flipped")).resolves.toBe("false");
    await expect(card.locator("iframe").count()).resolves.toBe(0);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it("flips without an analytics function and without errors", async () => {
    const { page, consoleErrors } = await visit();
    await page.route("https://www.youtube-nocookie.com/**", (route) =>
      route.fulfill({ contentType: "text/html", body: "" }),
    );
    await page.goto("/");
    await hydrated(page); // before it, a click on 'Video' is a plain navigation (the no-JS fallback)
    await page.getByRole("link", { name: /^Video/ }).click();
    await page.locator('article[data-flipped="true"] iframe').waitFor();
    expect(consoleErrors).toEqual([]);
  });

  it("without JavaScript the 'Video' badge is a plain link to the video", async () => {
    const { page, context } = await newPage(browser, { javaScriptEnabled: false });
    await page.goto("/");
    await expect(page.getByRole("link", { name: /^Video/ }).getAttribute("href")).resolves.toBe(
      `https://www.youtube.com/watch?v=${TEST_VIDEO.videoId}`,
    );
    await context.close();
  });
});

describe("subsidiary detail frame", () => {
  const SANDBOX = "allow-scripts allow-same-origin allow-popups allow-forms allow-downloads";
  // Every venture site "answers" nothing: its frame never finishes loading.
  const VENTURE_SITES = new RegExp(
    `^https://(www\\.)?(${Object.values(TEST_DOMAINS)
      .map((d) => d.replaceAll(".", "\\."))
      .join("|")})/`,
  );

  it("frames the site with exactly the product's sandbox; a frame that never loads shows 'Unable to Load Website'; another venture starts afresh", async () => {
    const { page, context } = await newPage(browser);
    await page.clock.install();
    const framed: string[] = [];
    await page.route(VENTURE_SITES, (route) => {
      framed.push(route.request().url());
    });
    const [first, second] = [startingVenture("vctr")!, startingVenture("snews")!];
    await page.goto(`/subsidiary/${first.id}`, { waitUntil: "domcontentloaded" });
    const frame = page.locator(`iframe[title="${first.name} website"]`);
    await frame.waitFor();
    await expect(frame.getAttribute("sandbox")).resolves.toBe(SANDBOX);
    await expect(frame.getAttribute("src")).resolves.toBe(`https://${TEST_DOMAINS[first.id]}`);
    await page.clock.runFor(16_000);
    await page.getByRole("heading", { name: "Unable to Load Website" }).waitFor();
    await expect(
      page.getByText("This website cannot be embedded. Please visit it directly.").isVisible(),
    ).resolves.toBe(true);
    const visit = page.getByRole("link", { name: `Visit ${first.name}` });
    await expect(visit.getAttribute("href")).resolves.toBe(`https://${TEST_DOMAINS[first.id]}`);
    await expect(visit.getAttribute("target")).resolves.toBe("_blank");
    await screenshot(page, "content-subsidiary-unable");

    // Client-side navigation to another venture: the failed state does not follow.
    await page.getByRole("link", { name: "Back to Portfolio" }).click();
    await page.getByRole("link", { name: `Learn more about ${second.name}` }).click();
    await page.getByRole("heading", { level: 1, name: second.name }).waitFor();
    await page.locator(`iframe[title="${second.name} website"]`).waitFor();
    await expect(page.getByRole("heading", { name: "Unable to Load Website" }).count()).resolves.toBe(0);
    expect(framed.some((u) => u.startsWith(`https://${TEST_DOMAINS[second.id]}`))).toBe(true);
    await context.close();
  });

  it("a venture without a configured domain: its description and the visit panel, no frame, no request off the site", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    const offSite: string[] = [];
    page.on("request", (r) => {
      if (new URL(r.url()).origin !== baseURL()) offSite.push(r.url());
    });
    const s = startingVenture(WITHOUT_DOMAIN)!;
    await page.goto(`/subsidiary/${s.id}`);
    await hydrated(page);
    await expect(page.locator("main").innerText()).resolves.toContain(s.description);
    await page.getByRole("heading", { level: 2, name: "Website Coming Soon" }).waitFor();
    const docs = page.getByRole("link", { name: `${s.name} Documents` });
    await expect(docs.getAttribute("href")).resolves.toBe(`/documents?subsidiary=${s.id}`);
    await expect(page.locator("iframe").count()).resolves.toBe(0);
    await expect(page.getByRole("link", { name: "Open in New Tab" }).count()).resolves.toBe(0);
    await expect(page.locator('main a[target="_blank"]').count()).resolves.toBe(0);
    expect(offSite).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await settled(page);
    await screenshot(page, "content-subsidiary-no-domain");
    await context.close();
  });

  it("a frame that loads stays", async () => {
    const { page, context } = await newPage(browser);
    await page.clock.install();
    await page.route(VENTURE_SITES, (route) =>
      route.fulfill({ contentType: "text/html", body: "<!doctype html><title>site</title><p>Hello" }),
    );
    await page.goto("/subsidiary/gaas", { waitUntil: "domcontentloaded" });
    await page.locator('iframe[data-state="loaded"]').waitFor();
    await page.clock.runFor(16_000);
    await expect(page.locator('iframe[data-state="loaded"]').count()).resolves.toBe(1);
    await expect(page.getByRole("heading", { name: "Unable to Load Website" }).count()).resolves.toBe(0);
    await context.close();
  });
});

describe("documents downloads", () => {
  it("'Download PDF' downloads a real PDF whose size is the one shown", async () => {
    const { page } = await visit();
    await page.goto("/documents");
    await hydrated(page);
    for (const doc of [documents.at(0), documents.at(-1)].map((d) => expectDefined(d, "a listed document"))) {
      const card = page.locator("li").filter({ has: page.getByRole("heading", { name: doc.title }) });
      const shown = await card.getByTestId("size").innerText();
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        card.getByRole("link", { name: /^Download PDF/ }).click(),
      ]);
      const bytes = await downloadBytes(download);
      expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
      expect(formatBytes(bytes.byteLength)).toBe(shown);
      const res = await fetch(`${baseURL()}${doc.url}`);
      expect(res.headers.get("content-type")).toBe("application/pdf");
      expect((await res.arrayBuffer()).byteLength).toBe(bytes.byteLength);
    }
  });
});

describe("subsidiary detail", () => {
  it("an unknown id: 'Subsidiary Not Found' and 'Back to Home' to /", async () => {
    const { page } = await visit();
    const res = await page.goto("/subsidiary/no-such-venture");
    expect(res?.status()).toBe(404);
    await hydrated(page);
    await page.getByRole("heading", { level: 1, name: "Subsidiary Not Found" }).waitFor();
    await expect(page.locator("main").innerText()).resolves.toContain(
      "The subsidiary you're looking for doesn't exist.",
    );
    await page.getByRole("link", { name: "Back to Home" }).click();
    await page.waitForURL((url) => url.pathname === "/");
  });

  it("the header's tile is the name's first letter on the venture's colour", async () => {
    const { page } = await visit();
    await page.goto("/subsidiary/gaas");
    const tile = page.locator("main header span[aria-hidden='true']").filter({ hasText: /^G$/ });
    await expect(tile.count()).resolves.toBe(1);
    await expect(tile.evaluate((el) => getComputedStyle(el).backgroundColor)).resolves.toBe("rgb(36, 99, 235)");
  });
});

describe("cards", () => {
  it("enter 0.1 s apart and flip in 0.4 s", async () => {
    const { page } = await visit({ reducedMotion: "no-preference" });
    await page.goto("/portfolio");
    const delays = await page
      .locator("main ul > li > article")
      .evaluateAll((cards) => cards.map((card) => getComputedStyle(card).animationDelay));
    expect(delays).toEqual(["0s", "0.1s", "0.2s", "0.3s", "0.4s", "0.5s", "0.6s", "0.7s", "0.8s"]);
    // The card moves, not its list item, which is laid out only near the screen: moving that item
    // re-laid out the whole page on every frame of the entrance (issue 36).
    const items = await page
      .locator("main ul > li:has(article)")
      .evaluateAll((lis) =>
        lis.map((li) => [getComputedStyle(li).contentVisibility, getComputedStyle(li).animationName]),
      );
    expect(items).toEqual(Array(9).fill(["auto", "none"]));
    const flip = await page
      .locator("article > div")
      .first()
      .evaluate((el) => getComputedStyle(el).transitionDuration);
    expect(flip).toBe("0.4s");
  });

  it("below the first screen, the blog's posts and the documents are laid out only when near, and nothing moves", async () => {
    // A phone's first style and layout covers the first screen (issue 36): every card of a list
    // after the third skips its own until scrolled near (content-visibility).
    const { page, context } = await newPage(browser, {
      viewport: { width: 412, height: 823 },
      isMobile: true,
      hasTouch: true,
      reducedMotion: "no-preference",
    });
    await page.addInitScript(() => {
      (window as unknown as { shifts: number[] }).shifts = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries())
          (window as unknown as { shifts: number[] }).shifts.push((e as PerformanceEntry & { value: number }).value);
      }).observe({ type: "layout-shift", buffered: true });
    });
    for (const path of ["/blog", "/documents"]) {
      await page.goto(path);
      await hydrated(page);
      const lists = await page
        .locator("main ul.card-grid")
        .evaluateAll((uls) => uls.map((ul) => [...ul.children].map((li) => getComputedStyle(li).contentVisibility)));
      expect(lists.length).toBeGreaterThan(0);
      for (const items of lists) expect(items).toEqual(items.map((_, i) => (i < 3 ? "visible" : "auto")));
      // Scrolled through to the end and back: the placeholders' heights move nothing on screen.
      await page.evaluate(async () => {
        const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 20)));
        for (let y = 0; y <= document.body.scrollHeight; y += 300) {
          window.scrollTo(0, y);
          await frame();
        }
        for (let y = document.body.scrollHeight; y >= 0; y -= 300) {
          window.scrollTo(0, y);
          await frame();
        }
      });
      await expect(page.evaluate(() => (window as unknown as { shifts: number[] }).shifts)).resolves.toEqual([]);
    }
    await context.close();
  });

  it("a card with a video flips on a click anywhere on its front, its own links still lead away; Enter on 'Video' flips too", async () => {
    const { page } = await visit();
    await page.route("https://www.youtube-nocookie.com/**", (route) =>
      route.fulfill({ contentType: "text/html", body: "<!doctype html><title>player</title>" }),
    );
    await page.goto("/portfolio");
    await hydrated(page);
    const card = page.locator("article").filter({ hasText: "FiscalMe" });
    await card.getByText("Fintech tools for modern finance").click();
    await expect.poll(() => card.getAttribute("data-flipped")).toBe("true");
    await settled(page);
    await screenshot(page, "card-flipped-by-click");
    await card.getByRole("button", { name: "← Back" }).click();
    await expect.poll(() => card.getAttribute("data-flipped")).toBe("false");

    // From the keyboard: the Video badge is a link; Enter flips, focus goes to '← Back' and returns.
    await card.getByRole("link", { name: /^Video/ }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => card.getAttribute("data-flipped")).toBe("true");
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("← Back");
    await page.keyboard.press("Enter");
    await expect.poll(() => card.getAttribute("data-flipped")).toBe("false");
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label")))
      .toBe("Video: play the FiscalMe video");

    await card.getByRole("link", { name: /^Docs/ }).click();
    await page.waitForURL((url) => url.search === "?subsidiary=fiscal-me");
  });
});
