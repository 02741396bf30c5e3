import type { Locator, Page } from "playwright-core";

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 390, height: 844 };

/** The page has hydrated (the client router is live), so handlers are attached. */
export async function hydrated(page: Page) {
  // Lazily loaded parts (the footer's signup form) have arrived and hydrated too.
  await page.waitForLoadState("networkidle");
  await page.waitForFunction(() => typeof (window as any).__remixRouter?.navigate === "function");
  // React attaches handlers in the same tick it commits; one frame later everything is wired.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
}

export async function sidebarCookie(page: Page) {
  const cookies = await page.context().cookies();
  return cookies.find((c) => c.name === "sidebar_state");
}

export const press = (page: Page, keys: string) => page.keyboard.press(keys);

/** The visible labels of a list of sidebar links (without badges and letter tiles). */
export const navLabels = (links: Locator) =>
  links.evaluateAll((as) => as.map((a) => a.querySelector("[data-nav-label]")?.textContent ?? ""));

/** Waits until no CSS animation or transition is running (e.g. the sheet's slide-in). */
export async function settled(page: Page) {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"));
}

export async function width(locator: Locator) {
  return Math.round((await locator.boundingBox())?.width ?? -1);
}

/**
 * Fake timers, paused: nothing scheduled by the page runs until the test advances the clock
 * (page.clock.runFor). Without the pause the fake clock keeps flowing like the real one.
 */
export async function pauseClock(page: Page) {
  const now = Date.now();
  await page.clock.install({ time: now });
  await page.clock.pauseAt(now + 1_000);
}
