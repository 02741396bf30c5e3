import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmedLead, signIn } from "./account";
import { downloadBytes, hydrated, launch, newPage, screenshot } from "./browser";

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

async function search(page: Page, q: string) {
  await page.getByLabel("Search").fill(q);
  await Promise.all([
    page.waitForURL((url) => url.searchParams.get("q") === q),
    page.getByRole("button", { name: "Apply filters" }).click(),
  ]);
}

const rowEmails = (page: Page) => page.getByTestId("subscriber-row").locator("td:first-child").allTextContents();

describe("leads workbench", () => {
  it("without JavaScript: search by name through the URL, then Delete behind its confirmation, audited", async () => {
    const { page, context } = await newPage(browser, { javaScriptEnabled: false });
    const emails = [`${tag}-one@example.com`, `${tag}-two@example.com`];
    await confirmedLead(page, { email: emails[0]!, firstName: `${tag}Ann` });
    await confirmedLead(page, { email: emails[1]!, firstName: `${tag}Bob` });
    await signIn(page, "admin@example.com", "/admin/leads");

    await search(page, `${tag}ann`);
    await expect.poll(() => rowEmails(page)).toEqual([emails[0]]);
    expect(await page.getByRole("link", { name: "Export CSV" }).getAttribute("href")).toBe(
      `/admin/leads.csv?q=${tag}ann`,
    );
    // The Export button is a plain link: without JavaScript it downloads the filtered file.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Export CSV" }).click(),
    ]);
    const csv = (await downloadBytes(download)).toString("utf8");
    expect(csv).toContain(emails[0]);
    expect(csv).not.toContain(emails[1]);
    await screenshot(page, "leads-workbench-search");

    await page.getByRole("link", { name: `Manage ${emails[0]}` }).click();
    const heading = page.getByRole("heading", { level: 1, name: /^Lead #\d+$/ });
    await heading.waitFor();
    const id = (await heading.textContent())!.slice("Lead #".length);
    await page.getByRole("link", { name: "Delete" }).click();
    await page.getByRole("heading", { name: "Delete this person's data?" }).waitFor();
    await screenshot(page, "leads-workbench-confirm-delete");
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/admin/leads"),
      page.getByRole("button", { name: "Delete", exact: true }).click(),
    ]);

    await search(page, tag);
    await expect.poll(() => rowEmails(page)).toEqual([emails[1]]);
    // The audit log is shared with the other test files' admins: find this lead's entry.
    await expect
      .poll(() =>
        page
          .getByTestId("audit-entry")
          .filter({ hasText: `Lead #${id} (` })
          .textContent(),
      )
      .toMatch(/^Lead #\d+ \(w\*\*\*@example\.com\) erased \(was confirmed; erased lead/);
    await context.close();
  });

  it("with JavaScript: filters by status and Unsubscribe moves the lead between them", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    const email = `${tag}-js@example.com`;
    await confirmedLead(page, { email: email, firstName: `${tag}Cy` });
    await signIn(page, "admin@example.com", "/admin/leads");
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
