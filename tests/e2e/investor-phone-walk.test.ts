import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ALERTS_CONFIRMATION_SUBJECT } from "~/features/leads/confirmation-mail.server";
import { ALERTS_TEXT, signupAnchor, subscriptionText } from "~/features/leads/newsletter";
import { UNAVAILABLE_TEXT } from "~/features/documents/library";
import { waitForMail, type InboxMail } from "../fixtures/inbox";
import { signIn } from "./account";
import { launch, newPage, ready, screenshot } from "./browser";
import { PHONE } from "./fit";

// What an investor and an IR manager meet on a 412 px phone without JavaScript (issue 53): the
// investor-alerts path speaks of investor alerts in its mail (subject, sender name, words) and on
// each page it opens, the mail fits the phone, the dashboard counts the alerts' subscribers, the
// deletes of a news item and of a document ask first (a confirmation step, no script), a visitor's
// /admin/… not-found page offers no Log In, and an unknown document's link says so. Every page
// is checked to fit the phone.
const inbox = inject("inboxURL");
const A = subscriptionText("alerts");
const tag = Date.now().toString(36);
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

async function fitsPhone(page: Page) {
  const extra = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(extra, `${page.url()} is ${extra} px too wide`).toBe(0);
}

/** The page's own words (heading and text), without the shell's footer signup. */
const ownWords = (page: Page) =>
  page
    .locator("section[aria-labelledby='subscription-title']")
    .evaluate((el) =>
      [el.querySelector("h1"), el.querySelector("h1 + div")].map((n) => n?.textContent ?? "").join(" "),
    );

const linkIn = (mail: InboxMail, path: string) =>
  mail.text.match(new RegExp(`https?://\\S+/${path}/[A-Za-z0-9_.-]+`))![0];

describe("on a 412 px phone without JavaScript", () => {
  it("the investor-alerts path names investor alerts in its mail and on every page it opens", async () => {
    const { page, context } = await newPage(browser, { javaScriptEnabled: false, viewport: PHONE });
    const email = `walk-${tag}-with-a-rather-long-mailbox-name@example.com`;
    await page.goto("/investors");
    const block = page.locator(`#${signupAnchor("alerts-investors")}`);
    await block.getByLabel(/^Email/).fill(email);
    // Ventures are chosen at signup (a disclosure, no JavaScript needed), and the reminders.
    await block.getByText(ALERTS_TEXT.ventures).click();
    await block.getByLabel("GaaS", { exact: true }).check();
    await block.getByLabel(ALERTS_TEXT.eventReminders).check();
    await Promise.all([
      page.waitForURL((url) => url.hash === `#${signupAnchor("alerts-investors")}`),
      block.getByRole("button", { name: ALERTS_TEXT.submit }).click(),
    ]);
    await block.getByText(ALERTS_TEXT.success).waitFor();

    // The mail: its own subject, sender name and words; it fits the phone.
    const mail = await waitForMail(inbox, { to: email, subject: ALERTS_CONFIRMATION_SUBJECT });
    expect(mail.from[0]?.name).toBe(ALERTS_TEXT.senderName);
    expect(mail.text).toContain("investor alerts");
    expect(mail.text.replace(/https?:\/\/\S+/g, "")).not.toMatch(/newsletter/i);
    // It names what was ticked.
    expect(mail.text).toContain("You chose the alerts of GaaS.");
    expect(mail.text).toContain("You also asked for a reminder the day before each event.");
    const mailView = await context.newPage();
    await mailView.setContent(mail.html);
    await fitsPhone(mailView);
    await screenshot(mailView, "walk-alerts-mail-412");
    await mailView.close();

    // The confirm page, then the confirmed page.
    await page.goto(linkIn(mail, "newsletter/confirm"));
    await ready(page);
    await page.getByRole("heading", { level: 1, name: A.confirmTitle }).waitFor();
    expect(await ownWords(page)).toContain("investor alerts");
    expect(await ownWords(page)).not.toMatch(/newsletter|news from/i);
    await fitsPhone(page);
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/newsletter/confirmed" && url.searchParams.get("topic") === "alerts"),
      page.getByRole("button", { name: A.confirmButton }).click(),
    ]);
    await page.getByRole("heading", { level: 1, name: A.confirmedTitle }).waitFor();
    expect(await page.getByTestId("subscription-confirmed").textContent()).toBe(A.confirmedBody);
    expect(await ownWords(page)).not.toMatch(/newsletter/i);
    await fitsPhone(page);
    // The confirmed page offers the choice at once (GaaS as ticked) and links the preferences page.
    await page.getByRole("link", { name: "your alert preferences" }).waitFor();
    await expect(page.getByLabel("GaaS", { exact: true }).isChecked()).resolves.toBe(true);
    await page.getByRole("group", { name: "Kinds" }).getByLabel("Only these").check();
    await page.getByLabel("Events", { exact: true }).check();
    await Promise.all([page.waitForLoadState("load"), page.getByRole("button", { name: "Save preferences" }).click()]);
    // "Saved" lands in the phone's viewport where the button was pressed.
    await page.getByText("Saved. Your alerts follow this choice from now on.").waitFor();
    await expect(
      page.locator("#alert-preferences-answer").evaluate((el) => {
        const r = el.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight;
      }),
    ).resolves.toBe(true);
    await screenshot(page, "walk-alerts-confirmed-412");

    // The admin's headline counts this subscriber under investor alerts.
    const admin = await newPage(browser, { javaScriptEnabled: false, viewport: PHONE });
    await signIn(admin.page, "admin@example.com", "/admin/leads");
    const alerts = Number((await admin.page.getByTestId("stat-alerts-subscribers").textContent())!.replace(/,/g, ""));
    expect(alerts).toBeGreaterThanOrEqual(1);
    await fitsPhone(admin.page);
    await admin.context.close();

    // The unsubscribe page and its outcome: investor alerts, and the alerts' own form below.
    await page.goto(linkIn(mail, "newsletter/unsubscribe"));
    await ready(page);
    expect(await ownWords(page)).toContain("investor alerts");
    expect(await ownWords(page)).not.toMatch(/newsletter/i);
    await fitsPhone(page);
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/newsletter/unsubscribed" && url.search === "?topic=alerts"),
      page.getByRole("button", { name: "Unsubscribe" }).click(),
    ]);
    await page.getByRole("heading", { level: 1, name: A.unsubscribedTitle }).waitFor();
    expect(await page.getByTestId("unsubscribed").textContent()).toBe(A.unsubscribedBody);
    const again = page.locator("section[aria-labelledby='subscription-title']");
    await again.getByRole("heading", { name: ALERTS_TEXT.title, exact: true }).waitFor();
    await again.getByRole("button", { name: ALERTS_TEXT.submit }).waitFor();
    await fitsPhone(page);
    await screenshot(page, "walk-alerts-unsubscribed-412");
    await context.close();
  }, 90_000);

  it("editing published news says what was mailed; deleting it and a document asks first, and only the second press deletes", async () => {
    const { page, context } = await newPage(browser, { javaScriptEnabled: false, viewport: PHONE });
    await signIn(page, "admin@example.com", "/admin/news");
    const title = `Walk delete ${tag}`;
    await page.getByLabel("Title").fill(title);
    await page.getByLabel(/^Summary/).fill("A draft to delete.");
    await page.getByLabel("Body (Markdown)").fill("Nothing to see.");
    await page.getByLabel("Publish", { exact: true }).check();
    await Promise.all([
      page.waitForURL((url) => url.searchParams.has("edit")),
      page.getByRole("button", { name: "Save" }).click(),
    ]);
    // Editing a published item says whether investors were mailed, and that an edit never sends.
    expect(await page.getByTestId("news-mail-status").textContent()).toBe(
      "No investor alert was sent for it. Saving an edit never e-mails investors again.",
    );
    await fitsPhone(page);
    await page.goto("/admin/news");
    const item = page.locator("li").filter({ hasText: title });
    await Promise.all([
      page.waitForURL((url) => url.searchParams.get("confirm") === "delete"),
      item.getByRole("link", { name: `Delete ${title}` }).click(),
    ]);
    const step = page.getByTestId("confirm-step");
    await step.getByRole("heading", { name: `Delete “${title}”?` }).waitFor();
    expect(await page.locator("li").filter({ hasText: title }).count()).toBe(1);
    await fitsPhone(page);
    await screenshot(page, "walk-news-confirm-delete-412");
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/admin/news" && !url.search),
      step.getByRole("button", { name: "Delete" }).click(),
    ]);
    expect(await page.locator("li").filter({ hasText: title }).count()).toBe(0);

    // A draft document (off /documents, which other files count), deleted with every version.
    await page.goto("/admin/documents");
    const upload = page.locator("form#new-document");
    const doc = `Walk document ${tag}`;
    await upload.getByLabel("Title").fill(doc);
    await upload.getByLabel("Category").selectOption("Reports");
    await upload.getByLabel(/^PDF file/).setInputFiles({
      name: "walk.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from(`%PDF-1.7\n% ${doc}\n%%EOF\n`),
    });
    await Promise.all([
      page.waitForURL((url) => /^\/admin\/documents\/[\w-]{12}$/.test(url.pathname)),
      upload.getByRole("button", { name: "Upload" }).click(),
    ]);
    const here = new URL(page.url()).pathname;
    await Promise.all([
      page.waitForURL((url) => url.searchParams.get("confirm") === "delete"),
      page.getByRole("link", { name: "Delete" }).click(),
    ]);
    await page.getByRole("heading", { name: `Delete “${doc}” and every version of it?` }).waitFor();
    await fitsPhone(page);
    await screenshot(page, "walk-document-confirm-delete-412");
    // Cancel keeps it; the second press deletes it.
    await page.getByTestId("confirm-step").getByRole("link", { name: "Cancel" }).click();
    await page.waitForURL((url) => url.pathname === here && !url.search);
    await page.goto(`${here}?confirm=delete`);
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/admin/documents"),
      page.getByTestId("confirm-step").getByRole("button", { name: "Delete" }).click(),
    ]);
    expect(await page.getByTestId("document-row").filter({ hasText: doc }).count()).toBe(0);
    await context.close();
  }, 90_000);

  it("a visitor: an /admin/… path is the not-found page with no Log In; an unknown document's link says so", async () => {
    const { page, context } = await newPage(browser, { javaScriptEnabled: false, viewport: PHONE });
    const res = await page.goto(`/admin/nothing-${tag}`);
    expect(res?.status()).toBe(404);
    await page.getByRole("heading", { level: 1, name: "Page Not Found" }).waitFor();
    // No sign-in link anywhere in the page (the sidebar's, hidden in the phone's menu, included).
    expect(await page.locator('a[href^="/api/login"]').count()).toBe(0);
    await fitsPhone(page);
    // Elsewhere the sidebar offers it as before.
    await page.goto("/documents");
    expect(await page.locator('a[href^="/api/login"]').count()).toBeGreaterThan(0);

    await page.goto(`/documents/no-such-${tag}.pdf`);
    expect(new URL(page.url()).pathname).toBe("/documents");
    const notice = page.getByTestId("document-unavailable");
    expect(await notice.textContent()).toContain(UNAVAILABLE_TEXT.notice);
    expect(await notice.getByRole("link", { name: UNAVAILABLE_TEXT.members }).getAttribute("href")).toMatch(
      /^\/api\/login\?returnTo=/,
    );
    await fitsPhone(page);
    await context.close();
  }, 60_000);
});
