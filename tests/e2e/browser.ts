import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContextOptions, type ConsoleMessage, type Page } from "playwright-core";
import { inject } from "vitest";
import { chromiumPath } from "./chromium";

export const baseURL = () => inject("baseURL");

// The flags our machines need: no sandbox as root, and no background traffic to the internet.
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    // Playwright gives every launch a new, empty user-data-dir of its own.
    args: ARGS,
  });
}

/** The pages of this file's tests still open, with their console errors: a failure's evidence. */
export const openPages = new Map<Page, string[]>();

export async function newPage(browser: Browser, options: BrowserContextOptions = {}) {
  const context = await browser.newContext({ baseURL: baseURL(), ...options });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on("console", (msg: ConsoleMessage) => {
    if (msg.type() === "error") consoleErrors.push(msg.text());
  });
  page.on("pageerror", (err) => consoleErrors.push(String(err)));
  openPages.set(page, consoleErrors);
  page.on("close", () => openPages.delete(page));
  return { context, page, consoleErrors };
}

export async function screenshot(page: Page, name: string) {
  const dir = join(process.cwd(), "test-results", "screenshots");
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}

/** The page has hydrated (the client router is live), so handlers are attached. */
export async function hydrated(page: Page) {
  // Lazily loaded parts (the footer's signup form) have arrived and hydrated too.
  await page.waitForLoadState("networkidle");
  await page.waitForFunction(() => typeof (window as any).__remixRouter?.navigate === "function");
  // React attaches handlers in the same tick it commits; one frame later everything is wired.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
}

/**
 * Waits until no finite CSS animation or transition is running (the sheet's slide-in, the cards'
 * fade-in, colours easing after a theme switch), so what a test measures is the settled page.
 */
export async function settled(page: Page) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== "running" || a.effect?.getComputedTiming().endTime === Infinity),
  );
}
