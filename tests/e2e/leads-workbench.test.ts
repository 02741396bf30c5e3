import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CONFIRMATION_SUBJECT } from "~/features/leads/confirmation-mail.server";
import { waitForMail } from "../fixtures/inbox";
import { hydrated, launch, newPage, screenshot } from "./browser";

// The leads workbench in Chromium, as an admin, with JavaScript on and off: a search through the
// URL, a lead's page, Unsubscribe and Delete behind their confirmation step, the audit log.
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const tag = `wb${Date.now().toString(36)}`;

/** A confirmed lead: signed up through the API, confirmed through its e-mail's button. */
async function confirmedLead(page: Page, email: string, firstName: string) {
  expect((await page.request.post("/api/leads", { data: { email, firstName, source: "blog" } })).status()).toBe(201);
  const mail = await waitForMail(inject("inboxURL"), { to: email, subject: CONFIRMATION_SUBJECT });
  const confirmUrl = mail.text.match(/https?:\/\/\S+\/newsletter\/confirm\/[A-Za-z0-9_-]+/)![0];
  expect((await page.request.post(confirmUrl, { form: {}, maxRedirects: 0 })).status()).toBe(303);
}

async function signInAsAdmin(page: Page) {
  await page.goto(`/api/login?returnTo=${encodeURIComponent("/admin/leads")}`);
  await page.getByLabel("E-mail").fill("admin@example.com");
  await Promise.all([page.waitForURL((url) => url.pathname === "/admin/leads"), page.getByRole("button", { name: "Sign in" }).click()]);
}

async function search(page: Page, q: string) {
  await page.getByLabel("Search").fill(q);
  await Promise.all([page.waitForURL((url) => url.searchParams.get("q") === q), page.getByRole("button", { name: "Apply filters" }).click()]);
}

const rowEmails = (page: Page) => page.getByTestId("subscriber-row").locator("td:first-child").allTextContents();

describe("leads workbench", () => {
  it("without JavaScript: search by name through the URL, then Delete behind its confirmation, audited", async () => {
    const { page, context } = await newPage(browser, { javaScriptEnabled: false });
    const emails = [`${tag}-one@example.com`, `${tag}-two@example.com`];
    await confirmedLead(page, emails[0]!, `${tag}Ann`);
    await confirmedLead(page, emails[1]!, `${tag}Bob`);
    await signInAsAdmin(page);

    await search(page, `${tag}ann`);
    await expect.poll(() => rowEmails(page)).toEqual([emails[0]]);
    expect(await page.getByRole("link", { name: "Export CSV" }).getAttribute("href")).toBe(`/admin/leads.csv?q=${tag}ann`);
    await screenshot(page, "leads-workbench-search");

    await page.getByRole("link", { name: `Manage ${emails[0]}` }).click();
    await page.getByRole("heading", { level: 1, name: /^Lead #\d+$/ }).waitFor();
    await page.getByRole("link", { name: "Delete" }).click();
    await page.getByRole("heading", { name: "Delete this person's data?" }).waitFor();
    await screenshot(page, "leads-workbench-confirm-delete");
    await Promise.all([page.waitForURL((url) => url.pathname === "/admin/leads"), page.getByRole("button", { name: "Delete", exact: true }).click()]);

    await search(page, tag);
    await expect.poll(() => rowEmails(page)).toEqual([emails[1]]);
    await expect.poll(() => page.getByTestId("audit-entry").first().textContent()).toMatch(/lead\.delete lead #\d+ \(t\*\*\*@example\.com\)/);
    await context.close();
  });

  it("with JavaScript: filters by status and Unsubscribe moves the lead between them", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    const email = `${tag}-js@example.com`;
    await confirmedLead(page, email, `${tag}Cy`);
    await signInAsAdmin(page);
    await hydrated(page);
    await search(page, `${tag}-js`);
    await expect.poll(() => rowEmails(page)).toEqual([email]);

    await page.getByRole("link", { name: `Manage ${email}` }).click();
    await page.getByRole("link", { name: "Unsubscribe" }).click();
    await page.getByRole("heading", { name: "Unsubscribe this lead?" }).waitFor();
    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await expect.poll(() => page.getByTestId("lead-status").textContent()).toBe("unsubscribed");

    await page.goto(`/admin/leads?q=${tag}-js`);
    await expect.poll(() => rowEmails(page)).toEqual([]);
    await page.goto(`/admin/leads?q=${tag}-js&status=unsubscribed`);
    await expect.poll(() => rowEmails(page)).toEqual([email]);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
