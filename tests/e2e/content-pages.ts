import type { Browser, Page } from "playwright-core";
import { ALERTS_TEXT } from "~/features/leads/newsletter";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { helpCopy, investorsCopy, legalCopy, partnersCopy, portfolioCopy } from "~/content/copy";
import { STARTING_DOCUMENTS as documents } from "~/content/documents";
import { notifications } from "~/content/notifications";
import { pages } from "~/content/pages";
import { formatPrice, storeCategories, storeProducts } from "~/content/store";
import { startingVenture, STAGES, VENTURE_ALIASES, STARTING_VENTURES } from "~/content/ventures";
import { hydrated, launch, screenshot, visitorPage } from "./browser";
import { TEST_DOMAINS } from "../fixtures/venture-domains";
import { expectDefined } from "../fixtures/expect-defined";

export const visibleText = (page: Page) => page.locator("main").innerText();

/**
 * The content pages in Chromium, checked against the catalogues (app/content), with JavaScript on
 * or off: one file each (content-js, content-nojs), so that the two run side by side.
 */
export function describeContentPages(js: boolean) {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });
  // One page for the file (browser.ts, visitorPage), each test starting with a full load of its path.
  const visit = visitorPage(() => browser, { javaScriptEnabled: js });
  const open = async (path: string) => {
    const { page } = await visit();
    const response = await page.goto(path);
    if (js) await hydrated(page);
    return { page, response };
  };

  describe(`content with JavaScript ${js}`, () => {
    const suffix = js ? "js" : "nojs";

    it("landing: hero, a card per venture with its links, About, 'Ready to Connect?'", async () => {
      const { page } = await open("/");
      const main = page.locator("main");
      await expect(main.getByText("Browse our ventures and consider funding us!").isVisible()).resolves.toBe(true);
      await expect(main.getByRole("link", { name: "Explore Portfolio" }).getAttribute("href")).resolves.toBe(
        "/portfolio",
      );
      const cards = page.locator("#portfolio article");
      await expect(cards.count()).resolves.toBe(STARTING_VENTURES.length);
      for (const [i, s] of STARTING_VENTURES.entries()) {
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
        await expect(card.getByRole("link", { name: /^Docs/ }).getAttribute("href")).resolves.toBe(
          `/documents?subsidiary=${s.id}`,
        );
        await expect(card.getByRole("link", { name: /^Learn more/ }).getAttribute("href")).resolves.toBe(
          `/subsidiary/${s.id}`,
        );
      }
      await expect(main.getByRole("heading", { name: "Ready to Connect?" }).isVisible()).resolves.toBe(true);
      await expect(main.getByRole("link", { name: "Get Started" }).getAttribute("href")).resolves.toBe("/api/login");
      await screenshot(page, `content-landing-${suffix}`);
    });

    it("portfolio: every venture and the 9 / 8 / 1 tiles; cards are 380px tall (420px wide screens)", async () => {
      const { page } = await open("/portfolio");
      const text = await visibleText(page);
      // Each tile is a <dt> label then its <dd> number (drawn number-first).
      for (const t of portfolioCopy.tiles) expect(text).toMatch(new RegExp(`${t.label}\\s+${t.value}`));
      for (const s of STARTING_VENTURES) expect(text).toContain(s.name);
      const height = () =>
        page
          .locator("article")
          .first()
          .evaluate((el) => (el as HTMLElement).offsetHeight);
      await page.setViewportSize({ width: 1280, height: 900 });
      expect(await height()).toBe(420);
      await page.setViewportSize({ width: 800, height: 900 });
      expect(await height()).toBe(380);
    });

    it("investors, partners, store and legal show the catalogue's words and numbers", async () => {
      const { page } = await open("/investors");
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
    });

    it("sitemap: every venture links to its page, and to its domain where one is configured", async () => {
      const { page } = await open("/sitemap");
      for (const s of STARTING_VENTURES) {
        await expect(page.locator(`main a[href="/subsidiary/${s.id}"]`).innerText()).resolves.toBe(s.name);
        const domain = TEST_DOMAINS[s.id];
        if (domain)
          await expect(page.locator(`main a[href="https://${domain}"]`).innerText()).resolves.toContain(domain);
      }
      await expect(page.locator('main a[href$=".example"]').count()).resolves.toBe(Object.keys(TEST_DOMAINS).length);
    });

    it("notifications: three samples, 'Mark all as read', then the empty state", async () => {
      const { page } = await open("/notifications");
      const items = page.locator("main li[data-read]");
      await expect(items.count()).resolves.toBe(notifications.length);
      await expect(page.locator('main li[data-read="false"]').count()).resolves.toBe(
        notifications.filter((n) => !n.read).length,
      );
      // Without JavaScript a GET form: a full navigation, so the old list detaches before the new
      // one loads. Wait for the new page, then count.
      await Promise.all([
        page.waitForURL((url) => url.searchParams.get("view") === "read"),
        page.getByRole("button", { name: "Mark all as read" }).click(),
      ]);
      await expect.poll(() => page.locator('main li[data-read="true"]').count()).toBe(notifications.length);
      await expect(page.locator('main li[data-read="false"]').count()).resolves.toBe(0);
      await page.getByRole("button", { name: "Clear all" }).click();
      await page.getByRole("heading", { name: "No notifications" }).waitFor();
      await expect(visibleText(page)).resolves.toContain("You're all caught up!");
    });

    it("documents: grouped, filtered by the card's 'Docs' link, unknown id handled", async () => {
      const { page } = await open("/");
      const gaas = startingVenture("gaas")!;
      await page
        .locator("#portfolio article")
        .filter({ hasText: gaas.name })
        .getByRole("link", { name: /^Docs/ })
        .click();
      await page.getByRole("heading", { level: 1, name: `${gaas.name} Documents` }).waitFor();
      expect(new URL(page.url()).search).toBe("?subsidiary=gaas");
      await expect(page.getByRole("link", { name: /^Download PDF/ }).count()).resolves.toBe(1);
      await page.getByRole("link", { name: "Show all documents" }).click();
      await page.getByRole("heading", { level: 1, name: pages.documents.heading, exact: true }).waitFor();
      const headings = await page.locator("main h2").allInnerTexts();
      // The categories, then the investor alerts' signup block (issue 45).
      expect(headings).toEqual(["Corporate", "Pitch Decks", ALERTS_TEXT.title]);
      await expect(page.getByRole("link", { name: /^Download PDF/ }).count()).resolves.toBe(documents.length);
      await page.goto("/documents?subsidiary=unknown-venture");
      await expect(page.getByRole("main").getByRole("status").first().innerText()).resolves.toContain(
        "unknown-venture",
      );
      await expect(page.getByRole("link", { name: /^Download PDF/ }).count()).resolves.toBe(documents.length);
      await screenshot(page, `content-documents-unknown-${suffix}`);
    });

    it("help: the FAQ opens one answer at a time and the contact form sends", async () => {
      const { page } = await open("/help");
      const faq = page.locator("main details");
      await expect(faq.count()).resolves.toBe(4);
      await faq.nth(0).locator("summary").click();
      await faq.nth(1).locator("summary").click();
      await expect(faq.evaluateAll((els) => els.map((e) => (e as HTMLDetailsElement).open))).resolves.toEqual([
        false,
        true,
        false,
        false,
      ]);
      await faq.nth(1).locator("summary").click();
      await expect(faq.evaluateAll((els) => els.some((e) => (e as HTMLDetailsElement).open))).resolves.toBe(false);

      await page.getByLabel("Name", { exact: true }).fill("Grace Hopper");
      await page.getByLabel("Email", { exact: true }).fill(`grace-${suffix}@example.com`);
      await page.getByLabel("Subject", { exact: true }).fill("Investing");
      await page.getByLabel("Message", { exact: true }).fill("How do I invest in VCTR?");
      await page.getByRole("button", { name: "Send Message" }).click();
      await page.getByText(helpCopy.success).waitFor();
      // The sent form is emptied (conform resets it right after the answer renders).
      await page.waitForFunction(
        () => (document.querySelector('textarea[name="message"]') as HTMLTextAreaElement).value === "",
      );
    });

    it("help: a bad e-mail is explained under the field and the input is kept", async () => {
      const { page } = await open("/help");
      await page.getByLabel("Name", { exact: true }).fill("Grace Hopper");
      await page.getByLabel("Email", { exact: true }).fill("not-an-email");
      await page.getByLabel("Subject", { exact: true }).fill("Hi");
      await page.getByLabel("Message", { exact: true }).fill("Hello");
      await page.getByRole("button", { name: "Send Message" }).click();
      await page.getByText("Please enter a valid email address.").waitFor();
      await expect(page.getByLabel("Name", { exact: true }).inputValue()).resolves.toBe("Grace Hopper");
      await expect(page.getByLabel("Email", { exact: true }).getAttribute("aria-invalid")).resolves.toBe("true");
    });

    it("the old ids redirect to the venture's page", async () => {
      const { page } = await open("/");
      for (const [alias, id] of Object.entries(VENTURE_ALIASES)) {
        await page.goto(`/subsidiary/${alias}`);
        expect(new URL(page.url()).pathname).toBe(`/subsidiary/${id}`);
        await expect(page.locator("h1").innerText()).resolves.toBe(startingVenture(id)!.name);
      }
    });

    it("a card's 'Learn more' leads to the detail page, whose Back returns to the portfolio", async () => {
      const { page } = await open("/portfolio");
      const s = expectDefined(STARTING_VENTURES[3], "the fourth venture");
      await page.getByRole("link", { name: `Learn more about ${s.name}` }).click();
      await page.getByRole("heading", { level: 1, name: s.name }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/subsidiary/${s.id}`);
      await expect(page.getByRole("navigation", { name: "Breadcrumb" }).innerText()).resolves.toContain("Portfolio");
      const newTab = page.getByRole("link", { name: "Open in New Tab" });
      await expect(newTab.getAttribute("href")).resolves.toBe(`https://${TEST_DOMAINS[s.id]}`);
      await page.getByRole("link", { name: "Back to Portfolio" }).click();
      await page.getByRole("heading", { level: 1, name: pages.portfolio.heading }).waitFor();
    });
  });
}
