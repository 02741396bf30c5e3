import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { downloadBytes, launch, newPage, screenshot } from "./browser";

// A member's own data with JavaScript off (docs/decisions/019-personal-data.md): every step is a
// real form post and a full page load.
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const email = `leaving-${Date.now().toString(36)}@example.com`;

describe("a member's own data, without JavaScript", () => {
  it("downloads their data, deletes the account, lands home with the toast, signed out", async () => {
    const { page, context } = await newPage(browser, { javaScriptEnabled: false, acceptDownloads: true });
    await page.goto(`/api/login?returnTo=${encodeURIComponent("/settings")}`);
    await page.getByLabel("E-mail").fill(email);
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/settings"),
      page.getByRole("button", { name: "Sign in" }).click(),
    ]);

    // Subscribed from Settings, so the export and the erasure have a newsletter record too.
    await page.locator('input[name="newsletter"]').check({ force: true });
    await Promise.all([page.waitForLoadState("load"), page.getByRole("button", { name: "Save Changes" }).click()]);
    await page.getByText(`${email} is subscribed to our newsletter`).waitFor();

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download my data" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`afx-my-data-${new Date().toISOString().slice(0, 10)}.json`);
    const doc = JSON.parse((await downloadBytes(download)).toString("utf8"));
    expect(doc.email).toBe(email);
    expect(doc.memberAccounts).toHaveLength(1);
    expect(doc.memberAccounts[0].email).toBe(email);
    expect(doc.newsletter).toEqual([
      expect.objectContaining({ email, status: "confirmed", consent_method: "verified-member" }),
    ]);
    expect(page.url()).toMatch(/\/settings(#settings-answer)?$/);

    await Promise.all([
      page.waitForURL((url) => url.pathname === "/settings/delete"),
      page.getByRole("link", { name: "Delete Account" }).click(),
    ]);
    const field = page.getByLabel(/Type your e-mail address/);
    // A wrong address: 400, the message, nothing deleted.
    await field.fill("someone-else@example.com");
    const [wrong] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      page.getByRole("button", { name: "Delete my account" }).click(),
    ]);
    expect(wrong.status()).toBe(400);
    await page.getByText("That is not the e-mail address of this account: nothing was deleted.").waitFor();
    expect((await page.request.get("/api/auth/user")).status()).toBe(200);
    await screenshot(page, "account-delete-confirmation");

    await page.getByLabel(/Type your e-mail address/).fill(email.toUpperCase());
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/"),
      page.getByRole("button", { name: "Delete my account" }).click(),
    ]);
    await page.getByText("Account deleted").first().waitFor();
    await screenshot(page, "account-deleted");
    expect((await page.request.get("/api/auth/user")).status()).toBe(401);
    expect((await context.cookies()).map((c) => c.name)).not.toContain("afx_session");
    await context.close();
  });
});
