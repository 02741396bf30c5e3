import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "./account";
import { axeViolations, WCAG_AA } from "./axe";
import { hydrated, launch, newPage as newSharedPage, ready, screenshot } from "./browser";
import { startOwnWorker, type OwnWorker } from "./own-worker";

// The portfolio's admin in Chromium (issue 50): an admin with JavaScript off changes FiscalMe's
// tagline and stage and adds a fact sourced from a document version; a visitor sees the change on
// /, /portfolio and the venture's page within 65 s (through the HTML cache); both admin pages pass
// axe and fit a 412 px phone with that data present; with JavaScript the preview follows the form.
// On a worker of its own: the other files read the seeded ventures as they are.
let browser: Browser;
let worker: OwnWorker;
beforeAll(async () => {
  worker = await startOwnWorker("ventures", {});
  browser = await launch();
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await worker?.stop();
});

const PHONE = { width: 412, height: 915 };
const ADMIN_PAGE = "/admin/ventures/fiscal-me";
const TAGLINE = "Bookkeeping that finishes itself";

const newPage = (b: Browser, options: { javaScriptEnabled?: boolean; viewport?: typeof PHONE } = {}) =>
  newSharedPage(b, { baseURL: worker.url, ...options });

async function fitsAndPassesAxe(page: Page, path: string) {
  await page.goto(path);
  await ready(page);
  const extra = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(extra, `${path} overflows by ${extra} px`).toBe(0);
  const found = await axeViolations(page, WCAG_AA);
  if (found.length) await screenshot(page, `ventures-axe${path.replace(/[^a-z0-9]+/gi, "-")}`);
  expect(found, found.join("; ")).toEqual([]);
}

describe("the ventures admin", () => {
  it("without JavaScript: tagline and stage reach a visitor's pages within 65 s; a fact shows with its source", async () => {
    // A visitor's pages cached first.
    const visitor = await newPage(browser);
    await visitor.page.route(/^https:\/\/(?!localhost)/, (route) => route.abort());
    for (const path of ["/", "/portfolio", "/subsidiary/fiscal-me"]) await visitor.page.goto(path);

    const { page, context } = await newPage(browser, { javaScriptEnabled: false, viewport: PHONE });
    await signIn(page, "admin@example.com", "/admin/documents");
    // A document version's address, as its admin page lists it.
    await page.getByTestId("document-row").first().getByRole("link").first().click();
    const source = await page.locator('a[href^="/documents/v/"]').first().getAttribute("href");
    expect(source).toMatch(/^\/documents\/v\/[0-9a-f]{64}\.pdf$/);

    await page.goto(ADMIN_PAGE);
    const form = page.locator("form#venture");
    await form.getByLabel(/^Tagline/).fill(TAGLINE);
    await form.getByLabel("Stage").selectOption({ label: "Beta Testing" });
    await Promise.all([page.waitForURL(/announce=1/), form.getByRole("button", { name: "Save venture" }).click()]);
    const started = Date.now();
    await expect(page.getByLabel("Announce this change").isChecked()).resolves.toBe(false);

    const fact = page.locator("form#fact");
    await fact.getByLabel("Label").fill("Monthly active users");
    await fact.getByLabel("Value").fill("12,400");
    await fact.getByLabel("As of").fill("2026-10-31");
    await fact.getByLabel(/^Source/).fill(source!);
    await Promise.all([page.waitForLoadState("load"), fact.getByRole("button", { name: "Add fact" }).click()]);
    await expect(page.getByTestId("facts").textContent()).resolves.toContain("12,400");

    for (const path of ["/", "/portfolio", "/subsidiary/fiscal-me"]) {
      await expect
        .poll(
          async () => {
            await visitor.page.goto(path);
            return visitor.page.locator("main").textContent();
          },
          { timeout: 65_000, interval: 1_000 },
        )
        .toContain(TAGLINE);
      const text = (await visitor.page.locator("main").textContent()) ?? "";
      expect(text, path).toContain(TAGLINE);
      expect(text, path).toContain("Beta Testing");
    }
    expect(Date.now() - started).toBeLessThan(65_000);
    const link = visitor.page.locator(`a[href="${source}"]`);
    await expect(link.count()).resolves.toBeGreaterThan(0);
    await expect(visitor.page.getByText("12,400").count()).resolves.toBeGreaterThan(0);

    await context.close();
    await visitor.context.close();
  }, 180_000);

  it("both admin pages, with a fact and revisions present, pass axe and fit a 412 px phone", async () => {
    const { page, context } = await newPage(browser, { viewport: PHONE });
    await signIn(page, "admin@example.com", "/admin/ventures");
    for (const path of ["/admin/ventures", ADMIN_PAGE]) await fitsAndPassesAxe(page, path);
    await context.close();
  }, 120_000);

  it("with JavaScript: the preview follows the form", async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, "admin@example.com", ADMIN_PAGE);
    await hydrated(page);
    const preview = page.getByTestId("venture-preview");
    await preview.waitFor();
    await page
      .locator("form#venture")
      .getByLabel(/^Tagline/)
      .fill("Seen before saving");
    await expect.poll(() => preview.textContent()).toContain("Seen before saving");
    await context.close();
  });
});
