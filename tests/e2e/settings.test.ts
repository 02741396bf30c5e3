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

  it("'Save Changes' answers beside the button, in view, and as a toast; signed out, each member control says so", async () => {
    const { page, context } = await newPage(browser, { viewport: { width: 1366, height: 768 } });
    await page.goto("/settings");
    await hydrated(page);
    // Signed out: the controls stay, each with what it needs and the way in.
    const notes = page.getByTestId("sign-in-note");
    await expect(notes.count()).resolves.toBe(3);
    for (const note of await notes.all())
      await expect(note.getByRole("link", { name: "Log in" }).getAttribute("href")).resolves.toBe(
        "/api/login?returnTo=/settings",
      );
    const save = page.getByRole("button", { name: "Save Changes" });
    await save.scrollIntoViewIfNeeded();
    await save.click();
    const answer = page.getByTestId("settings-answer");
    await expect.poll(() => answer.innerText()).toMatch(/kept in this browser/);
    // In the viewport, on the button's row: no scrolling up to find it. Both boxes are read in one
    // frame, once the answer's focus has scrolled the page (two reads could straddle the scroll).
    await expect
      .poll(() =>
        page.evaluate(() => {
          const a = document.querySelector('[data-testid="settings-answer"]')!.getBoundingClientRect();
          const b = [...document.querySelectorAll("button")]
            .find((el) => el.textContent?.trim() === "Save Changes")!
            .getBoundingClientRect();
          const rowGap = Math.abs((a.top + a.bottom) / 2 - (b.top + b.bottom) / 2);
          return { inView: a.top >= 0 && a.bottom <= innerHeight, besideButton: rowGap < 48 };
        }),
      )
      .toEqual({ inView: true, besideButton: true });
    await page
      .getByRole("region", { name: /Notifications/ })
      .getByText("Settings saved")
      .waitFor();
    await context.close();
  });

  it("Cancel puts back the Keyboard Shortcuts switch too", async () => {
    const { page, context } = await newPage(browser);
    await page.goto("/settings");
    await hydrated(page);
    const shortcuts = page.getByRole("switch", { name: "Keyboard Shortcuts" });
    await shortcuts.click();
    await expect(page.evaluate(() => localStorage.getItem("shortcuts"))).resolves.toBe("off");
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => page.evaluate(() => localStorage.getItem("shortcuts"))).toBe("on");
    await expect(shortcuts.isChecked()).resolves.toBe(true);
    await context.close();
  });
});
