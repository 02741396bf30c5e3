import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { helpCopy } from "~/content/copy";
import { ADMIN_PAGES, pages } from "~/content/pages";
import { STARTING_VENTURES } from "~/content/ventures";
import { confirmedLead, signIn } from "./account";
import { launch, newPage, ready } from "./browser";
import { expectFits, overflow, PHONE } from "./fit";
import { EVENT_FIXTURE } from "./content-fixtures";

// No page scrolls sideways on a phone, with the longest values a real visitor brings: a
// 64-character address (signed in, and as a lead and a Help message in the admin's lists), the
// longest venture name, a 10-digit count, and the data every admin feature writes: a document with
// two versions (the audit log's entries, each version's 64-character SHA-256 and file name), a
// news item with a long unbroken title. Wide tables scroll inside their own box; the page itself
// never does.
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const DOMAIN = "@examplecompanies.co.uk";
const tag = Date.now().toString(36);
/** 64 characters, the longest address a form of ours takes in practice (RFC 5321 allows 254). */
const LONG = `alexandria.konstantinopoulou.${tag}`.padEnd(64 - DOMAIN.length, "s") + DOMAIN;
const longestVenture = [...STARTING_VENTURES].sort((a, b) => b.name.length - a.name.length)[0]!;
const TEN_DIGITS = (1_234_567_890).toLocaleString("en-US");
/** A title as long as the forms take, with a 64-character word no line can break at a space. */
const LONG_WORD = `Konzernabschlussbestaetigungsvermerk${tag}`.padEnd(64, "x");
const LONG_TITLE = `${LONG_WORD} annual report and consolidated accounts`;

function pdf(label: string): Buffer {
  return Buffer.from(`%PDF-1.7\n% ${label}\n${" ".repeat(2000)}\n%%EOF\n`);
}

/**
 * What the admin features write, as an admin writes it without JavaScript: a Help message from the
 * long address, a draft document (drafts stay off /documents, which other files count) with a second
 * version, a draft news item with the long title. Returns the document's and the item's admin pages.
 */
async function seedAdminData(): Promise<string[]> {
  const { page, context } = await newPage(browser, { javaScriptEnabled: false });
  await page.goto(pages.help.path);
  const contact = page.locator("#contact form");
  await contact.getByLabel("Name").fill("Alexandria Konstantinopoulou-Papadimitriou");
  await contact.getByLabel("Email").fill(LONG);
  await contact.getByLabel("Subject").fill(LONG_TITLE);
  await contact.getByLabel("Message").fill(`${LONG_WORD} ${LONG_WORD}`);
  await contact.getByRole("button", { name: "Send Message" }).click();
  await page.getByRole("status").filter({ hasText: helpCopy.success }).waitFor();

  await signIn(page, "admin@example.com", pages.documentLibrary.path);
  const upload = page.locator("form#new-document");
  await upload.getByLabel("Title").fill(LONG_TITLE.slice(0, 120));
  await upload.getByLabel("Category").selectOption("Reports");
  await upload.getByLabel(/^PDF file/).setInputFiles({
    name: `${LONG_WORD}-${LONG_WORD}.pdf`,
    mimeType: "application/pdf",
    buffer: pdf(`v1 ${tag}`),
  });
  await Promise.all([
    page.waitForURL((url) => /^\/admin\/documents\/[\w-]{12}$/.test(url.pathname)),
    upload.getByRole("button", { name: "Upload" }).click(),
  ]);
  const documentPage = new URL(page.url()).pathname;
  const version = page.locator("form#new-version");
  await version.getByLabel(/^PDF file/).setInputFiles({
    name: `${LONG_WORD}-v2.pdf`,
    mimeType: "application/pdf",
    buffer: pdf(`v2 ${tag}`),
  });
  await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith(documentPage)),
    version.getByRole("button", { name: "Upload new version" }).click(),
  ]);
  await page.goto(documentPage);
  expect(await page.getByTestId("version").count()).toBe(2);

  await page.goto(pages.newsAdmin.path);
  await page.getByLabel("Title").fill(LONG_TITLE.slice(0, 140));
  await page.getByLabel(/^Summary/).fill(`${LONG_WORD} ${LONG_WORD}`);
  await page.getByLabel("Body (Markdown)").fill(`A body with [a link](/documents) and ${LONG_WORD}.`);
  await Promise.all([
    page.waitForURL((url) => url.searchParams.has("edit")),
    page.getByRole("button", { name: "Save" }).click(),
  ]);
  const newsPage = `${new URL(page.url()).pathname}${new URL(page.url()).search}`;
  await context.close();
  return [
    documentPage,
    `${documentPage}?confirm=delete`,
    newsPage,
    `${newsPage.replace(/\?edit=/, "?confirm=delete&id=")}`,
  ];
}

async function fits(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBeLessThan(500);
  await ready(page);
  await expectFits(page, path);
}

describe("every page fits a 412 px and a 320 px phone", () => {
  // Every content page in PATHS is loaded at 412 px and checked in the walks (content-quality.ts).
  it("signed out: the longest venture's page, an event's venture and the CSV's not-found page", async () => {
    const { page, context } = await newPage(browser, { viewport: PHONE });
    await page.route(/^https:\/\/(?!localhost)/, (route) => route.abort());
    for (const path of [`/subsidiary/${longestVenture.id}`, `/subsidiary/${EVENT_FIXTURE.venture}`, "/admin/leads.csv"])
      await fits(page, path);
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

  it("the admin's pages, with a 64-character lead, message, document, news item and 10-digit counts", async () => {
    const seeded = await seedAdminData();
    const { page, context } = await newPage(browser, { viewport: PHONE });
    await confirmedLead(page, { email: LONG, firstName: "Alexandria", lastName: "Konstantinopoulou-Papadimitriou" });
    await signIn(page, "admin@example.com", pages.leads.path);
    // A hand-off of that lead, so the hand-off page lists one (its CSV is the answer, not a page).
    const handoff = await page.request.post(pages.subscriberHandoff.path, { form: { format: "ghost", scope: "all" } });
    expect(handoff.headers()["content-type"]).toBe("text/csv; charset=utf-8");
    // Every admin page, and each page of one record the features write (with its confirmation step).
    for (const path of [...ADMIN_PAGES.map((p) => p.path), ...seeded]) await fits(page, path);
    // The audit log carries the document's entries, in words (no hash), inside the phone.
    await page.goto(pages.leads.path);
    await ready(page);
    const entries = page.getByTestId("audit-entry");
    await expect.poll(() => entries.filter({ hasText: "New version of" }).count()).toBeGreaterThan(0);
    expect((await entries.allTextContents()).join("\n")).not.toMatch(/[0-9a-f]{64}/);
    await fits(page, `${pages.eventsAdmin.path}/${EVENT_FIXTURE.id}`);
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
