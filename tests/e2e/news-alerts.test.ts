import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ALERTS_CONFIRMATION_SUBJECT } from "~/features/leads/confirmation-mail.server";
import { ALERTS_TEXT, signupAnchor } from "~/features/leads/newsletter";
import { waitForMail } from "../fixtures/inbox";
import { confirmFromInbox, signIn } from "./account";
import { hydrated, launch, newPage, screenshot } from "./browser";

// Investor alerts as people use them (issue 45), in Chromium against the local SMTP server: the
// "Investor alerts" block on /investors with and without JavaScript, and an admin who writes an
// item at /admin/news, previews it and publishes it with its alert, which reaches the subscriber.

const inbox = inject("inboxURL");
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

let n = 0;
const uniqueEmail = (tag: string) => `alerts-${tag}-${Date.now().toString(36)}-${n++}@example.com`;
const block = (page: Page) => page.locator(`#${signupAnchor("alerts-investors")}`);

describe("the investor alerts block", () => {
  it("without JavaScript: the form posts, the page says to confirm, the mail asks for the alerts", async () => {
    const { page, context } = await newPage(browser, { javaScriptEnabled: false });
    const email = uniqueEmail("nojs");
    await page.goto("/investors");
    const form = block(page);
    await form.getByRole("heading", { name: ALERTS_TEXT.title }).waitFor();
    await form.getByLabel(/^Email/).fill(email);
    await Promise.all([
      page.waitForURL((url) => url.hash === `#${signupAnchor("alerts-investors")}`),
      form.getByRole("button", { name: ALERTS_TEXT.submit }).click(),
    ]);
    await form.getByText(ALERTS_TEXT.success).waitFor();
    const mail = await waitForMail(inbox, { to: email, subject: ALERTS_CONFIRMATION_SUBJECT });
    expect(mail.text).toContain("investor alerts");
    await context.close();
  });

  it("with JavaScript; then an admin previews and publishes news with its alert, and the subscriber gets it", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    const email = uniqueEmail("js");
    await page.goto("/investors");
    await hydrated(page);
    const form = block(page);
    await form.getByLabel("First name (optional)").fill("Ines");
    await form.getByLabel(/^Email/).fill(email);
    await form.getByRole("button", { name: ALERTS_TEXT.submit }).click();
    await form.getByText(ALERTS_TEXT.success).waitFor();
    expect(page.url()).not.toContain("#");
    await confirmFromInbox(page, email, "alerts");

    const title = `Browser alert ${Date.now().toString(36)}`;
    await signIn(page, "admin@example.com", "/admin/news");
    await hydrated(page);
    await page.getByLabel("Title").fill(title);
    await page.getByLabel(/^Summary/).fill("A short summary for the alert.");
    // The live preview renders as the admin types.
    await page.getByLabel("Body (Markdown)").fill("Hello **investors**.");
    await page.getByRole("region", { name: "Preview" }).locator("strong", { hasText: "investors" }).waitFor();
    await page.getByLabel("Publish", { exact: true }).check();
    await page.getByLabel("E-mail investor-alert subscribers when published").check();
    await screenshot(page, "news-admin-form");
    await Promise.all([
      page.waitForURL((url) => url.searchParams.has("edit")),
      page.getByRole("button", { name: "Save" }).click(),
    ]);
    const mail = await waitForMail(inbox, { to: email, subject: `AFX Holding Group: ${title}` });
    expect(mail.text).toContain("A short summary for the alert.");
    await page.reload();
    await page
      .getByText(/alert sent \d+ of \d+/)
      .first()
      .waitFor();

    await page.goto("/news");
    await page.getByRole("link", { name: title }).click();
    await page.getByRole("heading", { name: title, level: 1 }).waitFor();
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
