// Settings in the browser: switches that apply at once, and Cancel putting them back.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hydrated, launch, newPage } from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe("settings", () => {
  it("Cancel puts back the theme and the e-mail preference the page opened with", async () => {
    const { page, context } = await newPage(browser);
    await page.goto("/settings");
    await hydrated(page);
    const dark = page.locator('input[name="darkMode"]');
    const emails = page.locator('input[name="emailNotifications"]');
    await dark.click();
    await emails.click();
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(false);
    await expect(page.evaluate(() => localStorage.getItem("theme"))).resolves.toBe("light");
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    await expect(
      page.evaluate(() => [localStorage.getItem("theme"), localStorage.getItem("emailNotifications")]),
    ).resolves.toEqual(["dark", "on"]);
    await expect(dark.isChecked()).resolves.toBe(true);
    await expect(emails.isChecked()).resolves.toBe(true);
    await context.close();
  });
});
