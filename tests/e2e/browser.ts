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

export async function newPage(browser: Browser, options: BrowserContextOptions = {}) {
  const context = await browser.newContext({ baseURL: baseURL(), ...options });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on("console", (msg: ConsoleMessage) => {
    if (msg.type() === "error") consoleErrors.push(msg.text());
  });
  page.on("pageerror", (err) => consoleErrors.push(String(err)));
  return { context, page, consoleErrors };
}

export async function screenshot(page: Page, name: string) {
  const dir = join(process.cwd(), "test-results", "screenshots");
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}
