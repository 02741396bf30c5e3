import { mkdirSync } from "node:fs";
import { join } from "node:path";
import {
  chromium,
  type Browser,
  type BrowserContextOptions,
  type ConsoleMessage,
  type Download,
  type Page,
  type ViewportSize,
} from "playwright-core";
import { inject } from "vitest";
import { CHROMIUM_ARGS } from "../../scripts/lib/chromium-args.mjs";
import { chromiumPath } from "./chromium";

export const baseURL = () => inject("baseURL");

/**
 * The run's one Chromium (started by global-setup.ts), connected to from this test file: each
 * file's contexts are its own (fresh cookies and storage), and closing the connection closes them.
 */
export async function launch(): Promise<Browser> {
  return chromium.connect(inject("browserWSEndpoint"));
}

/** Starts the Chromium the whole run shares (Playwright gives it a new, empty user-data-dir). */
export function launchServer() {
  return chromium.launchServer({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
}

/** The pages of this file's tests still open, with their console errors: a failure's evidence. */
export const openPages = new Map<Page, string[]>();

/**
 * A page in a context of its own (fresh cookies and storage). It prefers reduced motion unless the
 * test asks otherwise: the cards' entrance and the shell's easing then end at once, so a test that
 * waits for the settled page (settled()) does not wait out ~0.6 s of animation on every load, for
 * the same settled page. Tests of the motion itself ask for "no-preference".
 */
export async function newPage(browser: Browser, options: BrowserContextOptions = {}) {
  const context = await browser.newContext({ baseURL: baseURL(), reducedMotion: "reduce", ...options });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on("console", (msg: ConsoleMessage) => {
    if (msg.type() === "error") consoleErrors.push(msg.text());
  });
  page.on("pageerror", (err) => consoleErrors.push(String(err)));
  openPages.set(page, consoleErrors);
  page.on("close", () => openPages.delete(page));
  let inFlight = 0;
  page.on("request", () => inFlight++);
  page.on("requestfinished", () => inFlight--);
  page.on("requestfailed", () => inFlight--);
  requestsInFlight.set(page, () => inFlight);
  return { context, page, consoleErrors };
}

/** What newPage returns. */
type OpenedPage = Awaited<ReturnType<typeof newPage>>;

/** Playwright's default viewport. */
const DEFAULT_VIEWPORT: ViewportSize = { width: 1280, height: 720 };

/**
 * One page for a file's tests, handed to each test as a new visitor's: no cookies, an empty
 * localStorage, no routes left by the test before, the test's viewport and motion preference, no
 * console errors recorded. A page per test started a new renderer on a cold cache: ~0.7 s of
 * Chromium's CPU before the test's first load on this machine, as long as many a short test.
 * A test that installs a fake clock or an init script (neither can be taken off a page), or that
 * counts the page's requests (a warm cache sends fewer), takes newPage.
 */
export function visitorPage(browser: () => Browser, contextOptions: BrowserContextOptions = {}) {
  let opened: OpenedPage | undefined;
  return async ({
    viewport = contextOptions.viewport ?? DEFAULT_VIEWPORT,
    reducedMotion = contextOptions.reducedMotion ?? "reduce",
  }: Pick<BrowserContextOptions, "viewport" | "reducedMotion"> = {}): Promise<OpenedPage> => {
    // A test that closed the page or its context hands the next one a new page.
    if (!opened || opened.page.isClosed()) opened = await newPage(browser(), contextOptions);
    else {
      const { page, context, consoleErrors } = opened;
      await page.unrouteAll({ behavior: "ignoreErrors" });
      // A static file of the site's own: leaves whatever the last test left running (its requests
      // could still set cookies) and puts the page on the origin whose storage is cleared.
      await page.goto("/favicon.svg");
      await context.clearCookies();
      await page.evaluate(() => localStorage.clear());
      consoleErrors.length = 0;
    }
    await opened.page.setViewportSize(viewport ?? DEFAULT_VIEWPORT);
    await opened.page.emulateMedia({ reducedMotion });
    return opened;
  };
}

/** Each page's count of requests sent and not yet answered (newPage counts them). */
const requestsInFlight = new WeakMap<Page, () => number>();

/**
 * A full-page screenshot for a person to look at, with E2E_SCREENSHOTS=1 (about 0.3 s of
 * Chromium's CPU each, 84 in a run, asserting nothing); a failure's screenshots are taken anyway.
 */
export async function screenshot(page: Page, name: string) {
  if (process.env.E2E_SCREENSHOTS !== "1") return;
  const dir = join(process.cwd(), "test-results", "screenshots");
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}

/**
 * In the page: the client router is live, every form and button carries React's props (so
 * selectively hydrated parts, the footer's lazily loaded signup form, have their handlers too),
 * and the shell's keyboard shortcuts, loaded right after hydration, listen.
 */
export const isHydrated = () =>
  typeof (window as any).__remixRouter?.navigate === "function" &&
  [...document.querySelectorAll("form, button")].every((el) =>
    Object.keys(el).some((key) => key.startsWith("__reactProps$")),
  ) &&
  (!document.querySelector(".shell") || document.documentElement.dataset.shortcuts === "on");

/** The page has hydrated (see isHydrated), so handlers are attached. */
export async function hydrated(page: Page) {
  await page.waitForFunction(isHydrated);
  // And the lazily loaded chunks have arrived, so a test acts on the finished page (what happens
  // when they arrive last is late-hydration.test.ts's subject): no request of the page's is open
  // across a frame. Playwright's networkidle says the same after 500 ms of quiet, on every call.
  const inFlight = requestsInFlight.get(page);
  for (let quiet = 0; quiet < 2;) {
    // React attaches handlers in the same tick it commits; one frame later everything is wired.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
    quiet = inFlight && inFlight() > 0 ? 0 : quiet + 1;
  }
}

/** After a full navigation: hydrated() when the page runs scripts (its inline Remix context ran), else nothing to wait for. */
export async function ready(page: Page) {
  if (await page.evaluate(() => "__remixContext" in window)) await hydrated(page);
}

/** A download's bytes (the browser is remote: its file is read through Playwright's stream). */
export async function downloadBytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
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
