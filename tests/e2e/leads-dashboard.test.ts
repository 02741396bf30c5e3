import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CSV_HEADER } from "~/features/leads/csv.server";
import { confirmedLead, signIn } from "./account";
import { downloadBytes, launch, screenshot, visitorPage } from "./browser";

// The leads dashboard and its CSV export in Chromium, signed in as the local admin.
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});
const visit = visitorPage(() => browser);

const tag = Date.now().toString(36);
const tricky = {
  email: `csv-${tag}@example.com`,
  firstName: 'Zoë "Z", the\nfirst',
  lastName: '=HYPERLINK("http://evil.example")',
  source: "partners",
};

describe("leads dashboard", () => {
  it("an admin sees the figures and downloads the CSV", async () => {
    const { page, consoleErrors } = await visit();
    // A lead with a quote, a comma, a newline, an accent and a leading '=' (through the JSON call of POST /api/leads).
    // Subscribers are the confirmed leads: signed up, then the e-mail's button pressed.
    await confirmedLead(page, tricky);

    await signIn(page, "admin@example.com", "/admin/leads");
    await page.getByRole("heading", { name: "Leads Dashboard", level: 1 }).waitFor();
    await page.getByTestId("stat-total-subscribers").waitFor();
    expect(Number((await page.getByTestId("stat-total-subscribers").textContent())!.replace(/,/g, ""))).toBeGreaterThan(
      0,
    );
    expect(await page.getByTestId("stat-this-week").textContent()).toMatch(/^\+\d/);
    await page.getByTestId("growth-chart").waitFor();
    await page.getByRole("cell", { name: tricky.email, exact: true }).waitFor();
    await screenshot(page, "leads-dashboard");

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Export CSV" }).click(),
    ]);
    const today = new Date().toISOString().slice(0, 10);
    expect(download.suggestedFilename()).toBe(`afx-leads-${today}.csv`);
    const bytes = await downloadBytes(download);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString("utf8");
    // The header tests/server/leads-data.test.ts pins as the product says it.
    expect(text.startsWith(`${CSV_HEADER.map((h) => `"${h}"`).join(",")}\r\n`)).toBe(true);
    expect(text).toContain(
      `"${tricky.email}","Zoë ""Z"", the\nfirst","'=HYPERLINK(""http://evil.example"")","partners","`,
    );
    expect(consoleErrors).toEqual([]);
  });

  it("a member gets the not-found page", async () => {
    const { page } = await visit();
    await signIn(page, `member-${tag}@example.com`, "/portfolio");
    const res = await page.goto("/admin/leads");
    expect(res?.status()).toBe(404);
    await page.getByRole("heading", { name: "Page Not Found" }).waitFor();
  });
});
