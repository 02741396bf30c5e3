import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { helpCopy, investorsCopy, legalCopy, partnersCopy, portfolioCopy } from "~/content/copy";
import { documents, formatBytes } from "~/content/documents";
import { notifications } from "~/content/notifications";
import { pages } from "~/content/pages";
import { formatPrice, storeCategories, storeProducts } from "~/content/store";
import { getSubsidiary, STAGES, SUBSIDIARY_ALIASES, subsidiaries } from "~/content/subsidiaries";
import { baseURL, downloadBytes, hydrated, launch, newPage, screenshot, settled } from "./browser";
import { TEST_VIDEO } from "./content-fixtures";
import { TEST_DOMAINS, WITHOUT_DOMAIN } from "../fixtures/venture-domains";

// The content pages in Chromium, checked against the catalogues (app/content), with and without
// JavaScript.
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

async function open(path: string, { js = true } = {}) {
  const { page, context, consoleErrors } = await newPage(browser, { javaScriptEnabled: js });
  const response = await page.goto(path);
  if (js) await hydrated(page);
  return { page, context, consoleErrors, response };
}

const visibleText = (page: Page) => page.locator("main").innerText();

describe.each([true, false])("content with JavaScript %s", (js) => {
  const suffix = js ? "js" : "nojs";

  it("landing: hero, a card per venture with its links, About, 'Ready to Connect?'", async () => {
    const { page, context } = await open("/", { js });
    const main = page.locator("main");
    await expect(main.getByText("Browse our ventures and consider funding us!").isVisible()).resolves.toBe(true);
    await expect(main.getByRole("link", { name: "Explore Portfolio" }).getAttribute("href")).resolves.toBe("/portfolio");
    const cards = page.locator("#portfolio article");
    await expect(cards.count()).resolves.toBe(subsidiaries.length);
    for (const [i, s] of subsidiaries.entries()) {
      const card = cards.nth(i);
      await expect(card.getByRole("heading").innerText()).resolves.toBe(s.name);
      await expect(card.innerText()).resolves.toContain(s.tagline);
      await expect(card.innerText()).resolves.toContain(STAGES[s.status]);
      const domain = TEST_DOMAINS[s.id];
      if (domain) {
        const site = card.getByRole("link", { name: `${domain} (opens in a new tab)` });
        await expect(site.getAttribute("target")).resolves.toBe("_blank");
        await expect(site.getAttribute("rel")).resolves.toContain("noopener");
      } else {
        await expect(card.locator('a[target="_blank"]').count()).resolves.toBe(0);
      }
      await expect(card.getByRole("link", { name: /^Docs/ }).getAttribute("href")).resolves.toBe(`/documents?subsidiary=${s.id}`);
      await expect(card.getByRole("link", { name: /^Learn more/ }).getAttribute("href")).resolves.toBe(`/subsidiary/${s.id}`);
    }
    await expect(main.getByRole("heading", { name: "Ready to Connect?" }).isVisible()).resolves.toBe(true);
    await expect(main.getByRole("link", { name: "Get Started" }).getAttribute("href")).resolves.toBe("/api/login");
    await screenshot(page, `content-landing-${suffix}`);
    await context.close();
  });

  it("portfolio: every venture and the 9 / 8 / 1 tiles; cards are 380px tall (420px wide screens)", async () => {
    const { page, context } = await open("/portfolio", { js });
    const text = await visibleText(page);
    // Each tile is a <dt> label then its <dd> number (drawn number-first).
    for (const t of portfolioCopy.tiles) expect(text).toMatch(new RegExp(`${t.label}\\s+${t.value}`));
    for (const s of subsidiaries) expect(text).toContain(s.name);
    const height = () => page.locator("article").first().evaluate((el) => (el as HTMLElement).offsetHeight);
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await height()).toBe(420);
    await page.setViewportSize({ width: 800, height: 900 });
    expect(await height()).toBe(380);
    await context.close();
  });

  it("investors, partners, store and legal show the catalogue's words and numbers", async () => {
    const { page, context } = await open("/investors", { js });
    let text = await visibleText(page);
    for (const t of investorsCopy.tiles) expect(text).toMatch(new RegExp(`${t.label}\\s+${t.value}`));
    expect(text).toContain("Why Invest With Us");
    await page.goto("/partners");
    text = await visibleText(page);
    for (const t of partnersCopy.types) expect(text).toContain(t.title);
    await page.goto("/store");
    text = await visibleText(page);
    for (const c of storeCategories) expect(text).toContain(c.name);
    for (const p of storeProducts) expect(text).toContain(formatPrice(p));
    expect(text).toContain("100+");
    await page.goto("/legal");
    text = await visibleText(page);
    expect(text).toContain(`Last updated ${legalCopy.lastUpdated}`);
    await context.close();
  });

  it("sitemap: every venture links to its page, and to its domain where one is configured", async () => {
    const { page, context } = await open("/sitemap", { js });
    for (const s of subsidiaries) {
      await expect(page.locator(`main a[href="/subsidiary/${s.id}"]`).innerText()).resolves.toBe(s.name);
      const domain = TEST_DOMAINS[s.id];
      if (domain) await expect(page.locator(`main a[href="https://${domain}"]`).innerText()).resolves.toContain(domain);
    }
    await expect(page.locator('main a[href$=".example"]').count()).resolves.toBe(Object.keys(TEST_DOMAINS).length);
    await context.close();
  });

  it("notifications: three samples, 'Mark all as read', then the empty state", async () => {
    const { page, context } = await open("/notifications", { js });
    const items = page.locator("main li[data-read]");
    await expect(items.count()).resolves.toBe(notifications.length);
    await expect(page.locator('main li[data-read="false"]').count()).resolves.toBe(notifications.filter((n) => !n.read).length);
    await page.getByRole("button", { name: "Mark all as read" }).click();
    await page.locator('main li[data-read="false"]').first().waitFor({ state: "detached" });
    await expect(page.locator("main li[data-read]").count()).resolves.toBe(notifications.length);
    await page.getByRole("button", { name: "Clear all" }).click();
    await page.getByRole("heading", { name: "No notifications" }).waitFor();
    await expect(visibleText(page)).resolves.toContain("You're all caught up!");
    await context.close();
  });

  it("documents: grouped, filtered by the card's 'Docs' link, unknown id handled", async () => {
    const { page, context } = await open("/", { js });
    const gaas = getSubsidiary("gaas")!;
    await page.locator("#portfolio article").filter({ hasText: gaas.name }).getByRole("link", { name: /^Docs/ }).click();
    await page.getByRole("heading", { level: 1, name: `${gaas.name} Documents` }).waitFor();
    expect(new URL(page.url()).search).toBe("?subsidiary=gaas");
    await expect(page.getByRole("link", { name: /^Download PDF/ }).count()).resolves.toBe(1);
    await page.getByRole("link", { name: "Show all documents" }).click();
    await page.getByRole("heading", { level: 1, name: pages.documents.heading, exact: true }).waitFor();
    const headings = await page.locator("main h2").allInnerTexts();
    expect(headings).toEqual(["Corporate", "Pitch Decks"]);
    await expect(page.getByRole("link", { name: /^Download PDF/ }).count()).resolves.toBe(documents.length);
    await page.goto("/documents?subsidiary=unknown-venture");
    await expect(page.getByRole("main").getByRole("status").innerText()).resolves.toContain("unknown-venture");
    await expect(page.getByRole("link", { name: /^Download PDF/ }).count()).resolves.toBe(documents.length);
    await screenshot(page, `content-documents-unknown-${suffix}`);
    await context.close();
  });

  it("help: the FAQ opens one answer at a time and the contact form sends", async () => {
    const { page, context } = await open("/help", { js });
    const faq = page.locator("main details");
    await expect(faq.count()).resolves.toBe(4);
    await faq.nth(0).locator("summary").click();
    await faq.nth(1).locator("summary").click();
    await expect(faq.evaluateAll((els) => els.map((e) => (e as HTMLDetailsElement).open))).resolves.toEqual([false, true, false, false]);
    await faq.nth(1).locator("summary").click();
    await expect(faq.evaluateAll((els) => els.some((e) => (e as HTMLDetailsElement).open))).resolves.toBe(false);

    await page.getByLabel("Name", { exact: true }).fill("Grace Hopper");
    await page.getByLabel("Email", { exact: true }).fill(`grace-${suffix}@example.com`);
    await page.getByLabel("Subject", { exact: true }).fill("Investing");
    await page.getByLabel("Message", { exact: true }).fill("How do I invest in VCTR?");
    await page.getByRole("button", { name: "Send Message" }).click();
    await page.getByText(helpCopy.success).waitFor();
    // The sent form is emptied (conform resets it right after the answer renders).
    await page.waitForFunction(() => (document.querySelector('textarea[name="message"]') as HTMLTextAreaElement).value === "");
    await context.close();
  });

  it("help: a bad e-mail is explained under the field and the input is kept", async () => {
    const { page, context } = await open("/help", { js });
    await page.getByLabel("Name", { exact: true }).fill("Grace Hopper");
    await page.getByLabel("Email", { exact: true }).fill("not-an-email");
    await page.getByLabel("Subject", { exact: true }).fill("Hi");
    await page.getByLabel("Message", { exact: true }).fill("Hello");
    await page.getByRole("button", { name: "Send Message" }).click();
    await page.getByText("Please enter a valid email address.").waitFor();
    await expect(page.getByLabel("Name", { exact: true }).inputValue()).resolves.toBe("Grace Hopper");
    await expect(page.getByLabel("Email", { exact: true }).getAttribute("aria-invalid")).resolves.toBe("true");
    await context.close();
  });

  it("the old ids redirect to the venture's page", async () => {
    const { page, context } = await open("/", { js });
    for (const [alias, id] of Object.entries(SUBSIDIARY_ALIASES)) {
      await page.goto(`/subsidiary/${alias}`);
      expect(new URL(page.url()).pathname).toBe(`/subsidiary/${id}`);
      await expect(page.locator("h1").innerText()).resolves.toBe(getSubsidiary(id)!.name);
    }
    await context.close();
  });

  it("a card's 'Learn more' leads to the detail page, whose Back returns to the portfolio", async () => {
    const { page, context } = await open("/portfolio", { js });
    const s = subsidiaries[3];
    await page.getByRole("link", { name: `Learn more about ${s.name}` }).click();
    await page.getByRole("heading", { level: 1, name: s.name }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/subsidiary/${s.id}`);
    await expect(page.getByRole("navigation", { name: "Breadcrumb" }).innerText()).resolves.toContain("Portfolio");
    const newTab = page.getByRole("link", { name: "Open in New Tab" });
    await expect(newTab.getAttribute("href")).resolves.toBe(`https://${TEST_DOMAINS[s.id]}`);
    await page.getByRole("link", { name: "Back to Portfolio" }).click();
    await page.getByRole("heading", { level: 1, name: pages.portfolio.heading }).waitFor();
    await context.close();
  });
});

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
    const s = getSubsidiary(TEST_VIDEO.subsidiaryId)!;
    const card = page.locator("article").filter({ hasText: s.name });
    expect(await page.locator("iframe").count()).toBe(0);
    expect(playerRequests).toEqual([]);
    // Cards without a video have no Video badge.
    await expect(page.getByRole("link", { name: /^Video/ }).count()).resolves.toBe(1);

    await hydrated(page); // before it, a click on 'Video' is a plain navigation (the no-JS fallback)
    await card.getByRole("link", { name: /^Video/ }).click();
    await expect(card.getAttribute("data-flipped")).resolves.toBe("true");
    const frame = card.locator("iframe");
    await expect(frame.getAttribute("src")).resolves.toBe(`https://www.youtube-nocookie.com/embed/${TEST_VIDEO.videoId}?autoplay=1`);
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
    const { page, context, consoleErrors } = await newPage(browser);
    await page.route("https://www.youtube-nocookie.com/**", (route) => route.fulfill({ contentType: "text/html", body: "" }));
    await page.goto("/");
    await hydrated(page); // before it, a click on 'Video' is a plain navigation (the no-JS fallback)
    await page.getByRole("link", { name: /^Video/ }).click();
    await page.locator('article[data-flipped="true"] iframe').waitFor();
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it("without JavaScript the 'Video' badge is a plain link to the video", async () => {
    const { page, context } = await open("/", { js: false });
    await expect(page.getByRole("link", { name: /^Video/ }).getAttribute("href")).resolves.toBe(
      `https://www.youtube.com/watch?v=${TEST_VIDEO.videoId}`,
    );
    await context.close();
  });
});

describe("subsidiary detail frame", () => {
  const SANDBOX = "allow-scripts allow-same-origin allow-popups allow-forms allow-downloads";
  // Every venture site "answers" nothing: its frame never finishes loading.
  const VENTURE_SITES = new RegExp(`^https://(www\\.)?(${Object.values(TEST_DOMAINS).map((d) => d.replaceAll(".", "\\.")).join("|")})/`);

  it("frames the site with exactly the product's sandbox; a frame that never loads shows 'Unable to Load Website'; another venture starts afresh", async () => {
    const { page, context } = await newPage(browser);
    await page.clock.install();
    const framed: string[] = [];
    await page.route(VENTURE_SITES, (route) => {
      framed.push(route.request().url());
    });
    const [first, second] = [getSubsidiary("vctr")!, getSubsidiary("snews")!];
    await page.goto(`/subsidiary/${first.id}`, { waitUntil: "domcontentloaded" });
    const frame = page.locator(`iframe[title="${first.name} website"]`);
    await frame.waitFor();
    await expect(frame.getAttribute("sandbox")).resolves.toBe(SANDBOX);
    await expect(frame.getAttribute("src")).resolves.toBe(`https://${TEST_DOMAINS[first.id]}`);
    await page.clock.runFor(16_000);
    await page.getByRole("heading", { name: "Unable to Load Website" }).waitFor();
    await expect(page.getByText("This website cannot be embedded. Please visit it directly.").isVisible()).resolves.toBe(true);
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
    const s = getSubsidiary(WITHOUT_DOMAIN)!;
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
    await page.route(VENTURE_SITES, (route) => route.fulfill({ contentType: "text/html", body: "<!doctype html><title>site</title><p>Hello" }));
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
    const { page, context } = await newPage(browser, { acceptDownloads: true });
    await page.goto("/documents");
    await hydrated(page);
    for (const doc of [documents[0], documents[documents.length - 1]]) {
      const card = page.locator("li").filter({ has: page.getByRole("heading", { name: doc.title }) });
      const shown = await card.getByTestId("size").innerText();
      const [download] = await Promise.all([page.waitForEvent("download"), card.getByRole("link", { name: /^Download PDF/ }).click()]);
      const bytes = await downloadBytes(download);
      expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
      expect(formatBytes(bytes.byteLength)).toBe(shown);
      const res = await fetch(`${baseURL()}${doc.url}`);
      expect(res.headers.get("content-type")).toBe("application/pdf");
      expect((await res.arrayBuffer()).byteLength).toBe(bytes.byteLength);
    }
    await context.close();
  });
});

describe("subsidiary detail", () => {
  it("an unknown id: 'Subsidiary Not Found' and 'Back to Home' to /", async () => {
    const { page, context } = await newPage(browser);
    const res = await page.goto("/subsidiary/no-such-venture");
    expect(res?.status()).toBe(404);
    await hydrated(page);
    await page.getByRole("heading", { level: 1, name: "Subsidiary Not Found" }).waitFor();
    await expect(page.locator("main").innerText()).resolves.toContain("The subsidiary you're looking for doesn't exist.");
    await page.getByRole("link", { name: "Back to Home" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await context.close();
  });

  it("the header's tile is the name's first letter on the venture's colour", async () => {
    const { page, context } = await newPage(browser);
    await page.goto("/subsidiary/gaas");
    const tile = page.locator("main header span[aria-hidden='true']").filter({ hasText: /^G$/ });
    await expect(tile.count()).resolves.toBe(1);
    await expect(tile.evaluate((el) => getComputedStyle(el).backgroundColor)).resolves.toBe("rgb(36, 99, 235)");
    await context.close();
  });
});

describe("cards", () => {
  it("enter 0.1 s apart and flip in 0.4 s", async () => {
    const { page, context } = await newPage(browser, { reducedMotion: "no-preference" });
    await page.goto("/portfolio");
    const delays = await page.locator("main ul > li > article").evaluateAll((cards) => cards.map((card) => getComputedStyle(card).animationDelay));
    expect(delays).toEqual(["0s", "0.1s", "0.2s", "0.3s", "0.4s", "0.5s", "0.6s", "0.7s", "0.8s"]);
    // The card moves, not its list item, which is laid out only near the screen: moving that item
    // re-laid out the whole page on every frame of the entrance (issue 36).
    const items = await page.locator("main ul > li:has(article)").evaluateAll((lis) => lis.map((li) => [getComputedStyle(li).contentVisibility, getComputedStyle(li).animationName]));
    expect(items).toEqual(Array(9).fill(["auto", "none"]));
    const flip = await page.locator("article > div").first().evaluate((el) => getComputedStyle(el).transitionDuration);
    expect(flip).toBe("0.4s");
    await context.close();
  });

  it("a card with a video flips on a click anywhere on its front, its own links still lead away; Enter on 'Video' flips too", async () => {
    const { page, context } = await newPage(browser);
    await page.route("https://www.youtube-nocookie.com/**", (route) => route.fulfill({ contentType: "text/html", body: "<!doctype html><title>player</title>" }));
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
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Video: play the FiscalMe video");

    await card.getByRole("link", { name: /^Docs/ }).click();
    await page.waitForURL((url) => url.search === "?subsidiary=fiscal-me");
    await context.close();
  });
});
