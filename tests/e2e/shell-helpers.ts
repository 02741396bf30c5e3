import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";
import { isHydrated } from "./browser";

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 390, height: 844 };

export async function sidebarCookie(page: Page) {
  const cookies = await page.context().cookies();
  return cookies.find((c) => c.name === "sidebar_state");
}

export const press = (page: Page, keys: string) => page.keyboard.press(keys);

/** The visible labels of a list of sidebar links (without badges and letter tiles). */
export const navLabels = (links: Locator) =>
  links.evaluateAll((as) => as.map((a) => a.querySelector("[data-nav-label]")?.textContent ?? ""));

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

/** Like hydrated(), but polled from here: an installed fake clock also stops in-page polling. */
export async function hydratedWithFakeClock(page: Page) {
  await expect.poll(() => page.evaluate(isHydrated)).toBe(true);
}
