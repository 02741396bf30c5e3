import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PAGES, pages } from "~/content/pages";
import { subsidiaries } from "~/content/subsidiaries";
import { confirmedLead, signIn } from "./account";
import { launch, newPage, ready } from "./browser";
import { PATHS } from "./content-quality";

// No page scrolls sideways on a phone, with the longest values a real visitor brings: a
// 64-character address (signed in, and as a lead in the admin's lists), the longest venture name,
// a 10-digit count. Wide tables scroll inside their own box; the page itself never does.
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const PHONE = { width: 412, height: 915 };
const DOMAIN = "@examplecompanies.co.uk";
const tag = Date.now().toString(36);
/** 64 characters, the longest address a form of ours takes in practice (RFC 5321 allows 254). */
const LONG = `alexandria.konstantinopoulou.${tag}`.padEnd(64 - DOMAIN.length, "s") + DOMAIN;
const longestVenture = [...subsidiaries].sort((a, b) => b.name.length - a.name.length)[0]!;
const TEN_DIGITS = (1_234_567_890).toLocaleString("en-US");

/** How far the document is wider than the viewport, and the first elements that stick out. */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const root = document.documentElement;
    const past = [...document.querySelectorAll("body *")]
      .filter((el) => el.getBoundingClientRect().right > root.clientWidth + 0.5 && !el.closest("[data-scroll-x]"))
      .slice(-3)
      .map((el) => `${el.tagName.toLowerCase()} "${(el.textContent ?? "").slice(0, 40)}"`);
    return { extra: root.scrollWidth - root.clientWidth, past };
  });
}

async function fits(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBeLessThan(500);
  await ready(page);
  const { extra, past } = await overflow(page);
  expect(extra, `${path} is ${extra} px too wide: ${past.join(", ")}`).toBe(0);
}

describe("every page fits a 412 px phone", () => {
  it("signed out: every content page and the longest venture's", async () => {
    const { page, context } = await newPage(browser, { viewport: PHONE });
    await page.route(/^https:\/\/(?!localhost)/, (route) => route.abort());
    for (const path of [...PATHS, `/subsidiary/${longestVenture.id}`, "/admin/leads.csv"]) await fits(page, path);
    await context.close();
  }, 120_000);

  it(`signed in as a 64-character address: the member pages (${LONG.length} characters)`, async () => {
    expect(LONG).toHaveLength(64);
    const { page, context } = await newPage(browser, { viewport: PHONE });
    await signIn(page, LONG, "/");
    for (const path of ["/", pages.settings.path, "/settings/delete", pages.notifications.path, pages.help.path])
      await fits(page, path);
    // A laptop and the narrowest phone too: the Session card once spilled at 1366 px.
    for (const width of [320, 1366, 1920]) {
      await page.setViewportSize({ width, height: 800 });
      await fits(page, "/");
    }
    await context.close();
  }, 60_000);

  it("the admin's pages, with a 64-character lead and 10-digit counts", async () => {
    const { page, context } = await newPage(browser, { viewport: PHONE });
    await confirmedLead(page, { email: LONG, firstName: "Alexandria", lastName: "Konstantinopoulou-Papadimitriou" });
    await signIn(page, "admin@example.com", pages.leads.path);
    for (const path of ADMIN_PAGES.map((p) => p.path)) await fits(page, path);
    // A venture's admin page: its forms, facts and revisions (tests/e2e/ventures.test.ts adds facts).
    await fits(page, `${pages.venturesAdmin.path}/${longestVenture.id}`);
    await fits(page, `${pages.leads.path}?q=${encodeURIComponent(LONG)}`);
    await page.getByRole("link", { name: `Manage ${LONG}` }).click();
    await page.waitForURL(/\/admin\/leads\/\d+/);
    await fits(page, page.url());
    // The largest count a dashboard could show, in every place a count is drawn.
    await page.goto(pages.leads.path);
    await ready(page);
    await page.evaluate((n) => {
      for (const el of document.querySelectorAll("[data-testid^='stat-'], [data-testid='source-count']"))
        el.textContent = el.textContent!.replace(/[\d,]+$/, n);
    }, TEN_DIGITS);
    const { extra, past } = await overflow(page);
    expect(extra, past.join(", ")).toBe(0);
    // The subscriber table scrolls inside its own box, its first column (the address) kept in view.
    const table = page
      .locator("[data-scroll-x]")
      .filter({ has: page.getByRole("table") })
      .first();
    await expect(table.evaluate((el) => getComputedStyle(el).overflowX)).resolves.toBe("auto");
    await expect(
      table
        .locator("tbody td")
        .first()
        .evaluate((el) => getComputedStyle(el).position),
    ).resolves.toBe("sticky");
    await context.close();
  }, 120_000);
});
