import type { Browser, Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NEWSLETTER_TEXT as T, signupAnchor } from "~/features/leads/newsletter";
import { hydrated, launch, newPage } from "./browser";

// A phone on a slow network: the footer's signup form is server-rendered and hydrated once its
// code arrives (a Suspense boundary), and that code can arrive after everything else has run:
// the router's route discovery (a transition over the whole tree), the toaster, the shortcuts, a
// visitor's first key press and first keystrokes. Holding the form's chunk back makes that order
// certain instead of a race (docs/decisions/056-client-only-code.md).

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** Holds back every request for the footer form's code until release() is called. */
async function holdSignupCode(page: Page) {
  const held: Route[] = [];
  let released = false;
  await page.route(/\/assets\/newsletter-signup[^/]*\.js$/, (route) =>
    released ? route.continue() : void held.push(route),
  );
  return {
    waitHeld: () => page.waitForRequest(/\/assets\/newsletter-signup[^/]*\.js$/),
    release: async () => {
      released = true;
      await Promise.all(held.map((r) => r.continue()));
    },
  };
}

const reactHandled = (page: Page, selector: string) =>
  page.waitForFunction((s) => {
    const el = document.querySelector(s);
    return !!el && Object.keys(el).some((key) => key.startsWith("__reactProps$"));
  }, selector);

describe("a page whose lazily hydrated form arrives last", () => {
  it("route discovery, the toaster, the shortcuts dialog and typing come first; the form then hydrates with what was typed, without an error, and signs up", async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    const hold = await holdSignupCode(page);
    const manifest = page.waitForResponse((r) => new URL(r.url()).pathname === "/__manifest");
    const held = hold.waitHeld();
    await page.goto("/portfolio");
    await held;
    // The rest of the page is live: the router discovered the links' routes (an update of the
    // whole route tree), the toaster mounted its region, the shortcuts listen.
    await page.waitForFunction(() => typeof (window as any).__remixRouter?.navigate === "function");
    expect((await manifest).ok()).toBe(true);
    await page.getByRole("region", { name: "Notifications (F8)" }).waitFor({ state: "attached" });
    await page.waitForFunction(() => document.documentElement.dataset.shortcuts === "on");
    const form = page.locator(`#${signupAnchor("footer")} form`);
    expect(await form.evaluate((el) => Object.keys(el).some((key) => key.startsWith("__reactProps$")))).toBe(false);
    // A first key press opens a dialog whose code loads on demand (a new Suspense boundary).
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.keyboard.press("Space");
    const dialog = page.getByRole("dialog", { name: "Keyboard Shortcuts" });
    await dialog.waitFor();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });

    // What the visitor types before the code arrives stays: the form hydrates, it is not redrawn.
    const email = `late-${Date.now().toString(36)}@example.com`;
    await form.getByLabel(/^Email/).fill(email);
    await hold.release();
    await reactHandled(page, `#${signupAnchor("footer")} form`);
    await hydrated(page);
    await expect(form.getByLabel(/^Email/).inputValue()).resolves.toBe(email);
    await form.getByRole("button", { name: T.submit }).click();
    await page
      .locator(`#${signupAnchor("footer")}`)
      .getByText(T.success)
      .waitFor();
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
