import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEVELOPER_TOAST } from "~/components/shell/shortcuts";
import { toastHeaders } from "~/utils/flash.server";
import { localVars } from "../../scripts/lib/config.mjs";
import { baseURL, hydrated, launch, newPage, screenshot } from "./browser";
import { DESKTOP, hydratedWithFakeClock, MOBILE, pauseClock } from "./shell-helpers";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const region = (page: Page) => page.getByRole("region", { name: "Notifications (F8)" });
const toasts = (page: Page) => region(page).locator("li");

/** The pointer leaves the window through its top edge (a real mouse move, then out). */
async function exitThroughTop(page: Page) {
  await page.mouse.move(640, 200);
  await page.mouse.move(640, 5, { steps: 2 });
  // Leaving the viewport: Chromium sends mouseout with no related target at clientY <= 0.
  await page.mouse.move(640, -10);
}

describe("exit-intent popup", () => {
  it("arms 3000 ms after load, opens on leaving through the top; 'Maybe later' only hides it", async () => {
    const { page, context, consoleErrors } = await newPage(browser, { viewport: DESKTOP });
    await pauseClock(page);
    await page.goto("/investors");
    await hydratedWithFakeClock(page);
    const popup = page.getByRole("dialog", { name: "Wait! Before you go..." });

    await page.clock.runFor(2_900);
    await exitThroughTop(page);
    await page.clock.runFor(50);
    await expect(popup.count()).resolves.toBe(0); // not armed yet

    await page.clock.runFor(100);
    await exitThroughTop(page);
    await popup.waitFor();
    await expect(popup.getByRole("button", { name: "Don't show this again" }).isVisible()).resolves.toBe(true);
    await screenshot(page, "shell-exit-popup");
    await popup.getByRole("button", { name: "Maybe later" }).click();
    await expect.poll(() => popup.count()).toBe(0);
    await expect(page.evaluate(() => localStorage.getItem("afxPopupDismissed"))).resolves.toBeNull();
    // Hidden for the rest of this visit…
    await exitThroughTop(page);
    await page.clock.runFor(50);
    await expect(popup.count()).resolves.toBe(0);

    // …and back on the next one; the close button too only hides it.
    await page.reload();
    await hydratedWithFakeClock(page);
    await page.clock.runFor(3_000);
    await exitThroughTop(page);
    await popup.waitFor();
    await popup.getByRole("button", { name: "Close" }).click();
    await expect.poll(() => popup.count()).toBe(0);
    await expect(page.evaluate(() => localStorage.getItem("afxPopupDismissed"))).resolves.toBeNull();
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it("'Don't show this again' stores afxPopupDismissed and it never arms again; Escape closes it", async () => {
    const { page, context } = await newPage(browser, { viewport: DESKTOP });
    await pauseClock(page);
    await page.goto("/");
    await hydratedWithFakeClock(page);
    const popup = page.getByRole("dialog", { name: "Wait! Before you go..." });
    await page.clock.runFor(3_000);
    await exitThroughTop(page);
    await popup.waitFor();
    await page.keyboard.press("Escape");
    await expect.poll(() => popup.count()).toBe(0);

    await page.reload();
    await hydratedWithFakeClock(page);
    await page.clock.runFor(3_000);
    await exitThroughTop(page);
    await popup.waitFor();
    await popup.getByRole("button", { name: "Don't show this again" }).click();
    await expect.poll(() => popup.count()).toBe(0);
    await expect(page.evaluate(() => localStorage.getItem("afxPopupDismissed"))).resolves.toBe("true");

    await page.reload();
    await hydratedWithFakeClock(page);
    await page.clock.runFor(10_000);
    await exitThroughTop(page);
    await page.clock.runFor(50);
    await expect(popup.count()).resolves.toBe(0);
    await context.close();
  });
});

describe("toasts", () => {
  it("one at a time, 5000 ms by default, viewport at most 420 px wide, F8 focuses the region", async () => {
    const { page, context } = await newPage(browser, { viewport: DESKTOP });
    await page.goto("/");
    await hydrated(page);
    await pauseClock(page);
    await page.keyboard.press("Control+Shift+D");
    await expect.poll(() => toasts(page).count()).toBe(1);
    await expect(toasts(page).first().innerText()).resolves.toContain(DEVELOPER_TOAST.description);
    await expect(
      region(page)
        .locator("ol")
        .evaluate((el) => getComputedStyle(el).maxWidth),
    ).resolves.toBe("420px");
    await screenshot(page, "shell-toast");

    await page.keyboard.press("F8");
    await expect(
      page.evaluate(() => document.activeElement?.closest("[role=region]")?.getAttribute("aria-label")),
    ).resolves.toBe("Notifications (F8)");
    await page.locator("h1").first().click(); // focus back on the page so the timer runs again

    await page.clock.runFor(4_900);
    await expect(toasts(page).first().getAttribute("data-state")).resolves.toBe("open");
    await page.clock.runFor(200);
    await expect.poll(() => toasts(page).count()).toBe(0);
    await context.close();
  });

  it("swipes right past 50 px to dismiss; a shorter swipe snaps back", async () => {
    const { page, context } = await newPage(browser, { viewport: DESKTOP });
    await page.goto("/");
    await hydrated(page);
    await page.keyboard.press("Control+Shift+D");
    const toast = toasts(page).first();
    await toast.waitFor();
    const swipe = async (dx: number) => {
      const box = (await toast.boundingBox())!;
      await page.mouse.move(box.x + 40, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + 40 + dx, box.y + box.height / 2, { steps: 8 });
      await page.mouse.up();
    };
    await swipe(30);
    await expect.poll(() => toast.getAttribute("data-swipe")).toBe("cancel");
    await expect(toast.getAttribute("data-state")).resolves.toBe("open");
    await swipe(80);
    await expect.poll(() => toasts(page).count()).toBe(0);
    await context.close();
  });

  it("a server flash (a toast set before a redirect) shows as a toast, and as a status message with JavaScript off", async () => {
    const secret = readFileSync(".dev.vars", "utf8").match(/^SESSION_SECRET="?([^"\n]+)"?/m)![1];
    // The local configuration with the worker's secret: the cookie is signed as the worker signs it.
    const env = { ...localVars(), SESSION_SECRET: secret } as unknown as Env;
    const headers = await toastHeaders(env, new Request(`${baseURL()}/`), {
      title: "Welcome to AFX Holding Group!",
      description: "You've successfully joined our community.",
    });
    const [pair = ""] = headers.get("Set-Cookie")!.split(";");
    const [name = "", ...value] = pair.split("=");
    const cookie = { name, value: value.join("="), url: baseURL() };

    for (const javaScriptEnabled of [true, false]) {
      const { page, context } = await newPage(browser, { viewport: MOBILE, javaScriptEnabled });
      await context.addCookies([cookie]);
      await page.goto("/portfolio");
      if (javaScriptEnabled) {
        await hydrated(page);
        await expect.poll(() => toasts(page).count()).toBe(1);
        await expect(toasts(page).first().innerText()).resolves.toContain("You've successfully joined our community.");
      } else {
        const status = page.getByRole("status").filter({ hasText: "Welcome to AFX Holding Group!" });
        await expect(status.isVisible()).resolves.toBe(true);
        await screenshot(page, "shell-flash-nojs");
      }
      // Shown once: the cookie is cleared.
      const left = (await context.cookies()).find((c) => c.name === name);
      expect(left?.value ?? "").toBe("");
      await context.close();
    }
  });
});

describe("exit popup", () => {
  it("claims 67,000+ subscribers and holds the 'Join Our Community' form", async () => {
    const { page, context } = await newPage(browser, { viewport: DESKTOP });
    await pauseClock(page);
    await page.goto("/investors");
    await hydratedWithFakeClock(page);
    await page.clock.runFor(3_000);
    await page.mouse.move(640, 200);
    await page.mouse.move(640, 5, { steps: 2 });
    await page.mouse.move(640, -10);
    const popup = page.getByRole("dialog", { name: "Wait! Before you go..." });
    await popup.waitFor();
    await expect(popup.innerText()).resolves.toContain("Join 67,000+ subscribers");
    await expect(popup.getByText("Join Our Community", { exact: true }).isVisible()).resolves.toBe(true);
    await context.close();
  });
});
