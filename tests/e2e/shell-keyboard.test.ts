import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEVELOPER_TOAST, GOD_MODE_TOAST, KONAMI_TOAST } from "~/components/shell/shortcuts";
import { STARTING_VENTURES } from "~/content/ventures";
import { hydrated, launch, newPage, screenshot, visitorPage } from "./browser";
import { DESKTOP, MOBILE, pauseClock } from "./shell-helpers";
import { expectDefined } from "../fixtures/expect-defined";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

// One page for the file's tests (browser.ts, visitorPage). The shake and the rainbow are motion:
// these tests watch them run.
const visit = visitorPage(() => browser, { reducedMotion: "no-preference" });

/** `path` hydrated with the shortcuts listening; `ownPage` for a test that installs a fake clock. */
async function open(path = "/", viewport = DESKTOP, { ownPage = false } = {}) {
  const opened = ownPage
    ? await newPage(browser, { viewport, reducedMotion: "no-preference" })
    : await visit({ viewport });
  await opened.page.goto(path);
  await hydrated(opened.page);
  // The shortcuts' code arrives lazily after hydration; a key pressed before it listens is lost.
  await opened.page.waitForSelector("html[data-shortcuts='on']", { state: "attached" });
  return opened;
}

const pathname = (page: Page) => new URL(page.url()).pathname;
const toastText = (page: Page) =>
  page
    .getByRole("region", { name: /Notifications/ })
    .locator("li")
    .first()
    .innerText();

describe("keyboard shortcuts", () => {
  let docs: Awaited<ReturnType<typeof open>> | undefined;
  it.each([
    ["Control+p", "/portfolio"],
    ["Meta+i", "/investors"],
    ["Control+f", "/funding"],
    ["Control+s", "/store"],
    ["Control+l", "/legal"],
    ["Control+n", "/notifications"],
    ["Control+Shift+S", "/settings"],
    ["Meta+Shift+H", "/help"],
  ])("%s goes to %s", async (keys, to) => {
    // One page for the eight: each shortcut from /documents, then Back (the client router) to it.
    docs ??= await open("/documents");
    const { page, consoleErrors } = docs;
    if (pathname(page) !== "/documents") {
      await page.goBack();
      await page.waitForURL("**/documents");
    }
    await page.keyboard.press(keys);
    await page.waitForURL(`**${to}`);
    expect(pathname(page)).toBe(to);
    expect(consoleErrors).toEqual([]);
  });

  it("Ctrl+H goes home and Alt+1..9 go to the Nth venture of the catalogue (seeded, in order)", async () => {
    const { page } = await open("/legal");
    await page.keyboard.press("Control+h");
    await page.waitForURL((url) => url.pathname === "/");
    // This file's worker holds the catalogue as seeded (tests/e2e/ventures.test.ts changes its own).
    for (const n of [1, 5, 9]) {
      await page.keyboard.press(`Alt+${n}`);
      await page.waitForURL(`**/subsidiary/${expectDefined(STARTING_VENTURES[n - 1]).id}`);
    }
  });

  it("Ctrl+K focuses 'Quick find...', expanding the sidebar or opening the sheet first", async () => {
    const { page } = await open("/", DESKTOP);
    await page.getByTestId("sidebar-trigger").click(); // → hidden
    await page.keyboard.press("Control+k");
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement)?.placeholder))
      .toBe("Quick find...");
    await expect(page.locator(".shell").getAttribute("data-sidebar-state")).resolves.toBe("expanded");
    await page.keyboard.type("dog"); // typed into the box, not taken as shortcuts
    await expect(page.getByPlaceholder("Quick find...").inputValue()).resolves.toBe("dog");

    const mobile = await open("/", MOBILE);
    await mobile.page.keyboard.press("Meta+k");
    const sheet = mobile.page.getByRole("dialog", { name: "Menu" });
    await sheet.waitFor();
    await expect
      .poll(() => mobile.page.evaluate(() => (document.activeElement as HTMLInputElement)?.placeholder))
      .toBe("Quick find...");
  });

  it("Ctrl+Shift+T toggles the theme and stores it in localStorage.theme", async () => {
    const { page } = await open("/");
    const isDark = () => page.evaluate(() => document.documentElement.classList.contains("dark"));
    await expect(isDark()).resolves.toBe(true); // dark by default
    await page.keyboard.press("Control+Shift+T");
    await expect.poll(isDark).toBe(false);
    await expect(page.evaluate(() => localStorage.getItem("theme"))).resolves.toBe("light");
    // No flash of the wrong theme: the server HTML is dark, the pre-paint script makes it light.
    await page.reload({ waitUntil: "commit" });
    await page.waitForSelector("body");
    await expect(isDark()).resolves.toBe(false);
    await screenshot(page, "shell-desktop-light");
    await hydrated(page);
    await page.keyboard.press("Meta+Shift+T");
    await expect.poll(isDark).toBe(true);
    await expect(page.evaluate(() => localStorage.getItem("theme"))).resolves.toBe("dark");
  });

  it("the settings switch toggles the theme too and shows the stored one after a reload", async () => {
    const { page } = await open("/settings");
    const isDark = () => page.evaluate(() => document.documentElement.classList.contains("dark"));
    const toggle = page.getByRole("switch", { name: "Dark Mode" });
    await expect(toggle.isChecked()).resolves.toBe(true);
    await toggle.click();
    await expect.poll(isDark).toBe(false);
    await expect(page.evaluate(() => localStorage.getItem("theme"))).resolves.toBe("light");
    await page.reload();
    await hydrated(page);
    await expect(isDark()).resolves.toBe(false);
    await expect.poll(() => toggle.isChecked()).toBe(false);
    await toggle.click();
    await expect.poll(isDark).toBe(true);
    await expect(page.evaluate(() => localStorage.getItem("theme"))).resolves.toBe("dark");
  });

  it("Ctrl+Shift+D and Ctrl+Shift+Alt+G show their toasts", async () => {
    const { page } = await open("/");
    await page.keyboard.press("Control+Shift+D");
    await expect.poll(() => toastText(page)).toContain(DEVELOPER_TOAST.title);
    await page.keyboard.press("Control+Shift+Alt+G");
    await expect.poll(() => toastText(page)).toContain(GOD_MODE_TOAST.title);
    // At most one toast at a time.
    await expect(
      page
        .getByRole("region", { name: /Notifications/ })
        .locator("li")
        .count(),
    ).resolves.toBe(1);
  });

  it("Space opens the shortcuts dialog (listing Ctrl/Cmd+B), Escape closes it; never while typing", async () => {
    const { page } = await open("/");
    await page.locator("body").click({ position: { x: 700, y: 300 } }); // focus on nothing in particular
    await page.keyboard.press("Space");
    const dialog = page.getByRole("dialog", { name: "Keyboard Shortcuts" });
    await dialog.waitFor();
    await expect(dialog.innerText()).resolves.toContain("Ctrl/⌘ + B");
    await expect(dialog.innerText()).resolves.toContain("Ctrl + Shift + Alt + G");
    // Alt + 1 … 9 listed with the catalogue's ventures, in its order.
    for (const [i, s] of STARTING_VENTURES.slice(0, 9).entries()) {
      await expect(dialog.locator(`dt:has-text("Alt + ${i + 1}") + dd`).innerText()).resolves.toBe(s.name);
    }
    await screenshot(page, "shell-shortcuts-dialog");
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.count()).toBe(0);

    // Typing in a field: no dialog, no navigation, no theme change.
    const search = page.getByPlaceholder("Quick find...");
    await search.click();
    await page.keyboard.press("Space");
    await page.keyboard.press("Control+Shift+T");
    await page.keyboard.press("Control+p");
    await page.keyboard.type("rainbow");
    await expect(search.inputValue()).resolves.toBe(" rainbow");
    expect(pathname(page)).toBe("/");
    await expect(dialog.count()).resolves.toBe(0);
    await expect(page.evaluate(() => document.documentElement.className)).resolves.not.toMatch(/rainbow|light/);
    await expect(page.evaluate(() => document.documentElement.classList.contains("dark"))).resolves.toBe(true);
  });
});

describe("the Keyboard Shortcuts switch", () => {
  /** Whether the page's own handlers took the next keydown (read after every listener ran). */
  const watchNextKey = (page: Page) =>
    page.evaluate(() => {
      delete (window as any).__taken;
      window.addEventListener("keydown", (e) => setTimeout(() => ((window as any).__taken = e.defaultPrevented)), {
        once: true,
      });
    });
  const taken = (page: Page) => page.evaluate(() => (window as any).__taken as boolean | undefined);

  it("off in Settings, every key is the browser's (Ctrl+F stays on the page, Space opens nothing)", async () => {
    // Its own context: the switch is kept in localStorage, which the file's shared page keeps.
    const { page, context } = await open("/settings", DESKTOP, { ownPage: true });
    const toggle = page.getByRole("switch", { name: "Keyboard Shortcuts" });
    await expect(toggle.isChecked()).resolves.toBe(true); // on by default, as the product asks
    await toggle.click();
    await expect(page.evaluate(() => localStorage.getItem("shortcuts"))).resolves.toBe("off");
    await page.goto("/documents");
    await hydrated(page);
    await page.waitForSelector("html[data-shortcuts='on']", { state: "attached" });
    await page.locator("h1").click();
    for (const key of ["Control+f", "Control+p", "Control+s", "Space"]) {
      await watchNextKey(page);
      await page.keyboard.press(key);
      await expect.poll(() => taken(page)).toBe(false);
    }
    expect(pathname(page)).toBe("/documents");
    await expect(page.getByRole("dialog").count()).resolves.toBe(0);

    // Back on in the shortcuts dialog's own switch (reached from Settings while they are off).
    await page.evaluate(() => localStorage.setItem("shortcuts", "on"));
    await page.keyboard.press("Space");
    const dialog = page.getByRole("dialog", { name: "Keyboard Shortcuts" });
    await dialog.waitFor();
    await expect(dialog.innerText()).resolves.toMatch(/switch them\s+off below or in Settings/);
    await dialog.getByRole("switch", { name: "Keyboard Shortcuts" }).click();
    await expect(page.evaluate(() => localStorage.getItem("shortcuts"))).resolves.toBe("off");
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.count()).toBe(0);
    await watchNextKey(page);
    await page.keyboard.press("Control+f");
    await expect.poll(() => taken(page)).toBe(false);
    expect(pathname(page)).toBe("/documents");
    await context.close();
  });
});

describe("easter eggs", () => {
  const konami = [
    "ArrowUp",
    "ArrowUp",
    "ArrowDown",
    "ArrowDown",
    "ArrowLeft",
    "ArrowRight",
    "ArrowLeft",
    "ArrowRight",
    "b",
    "a",
  ];

  it("the Konami code shows a toast and shakes the page for 0.5 s", async () => {
    const { page } = await open("/");
    // The shake lasts 0.5 s, less than a loaded machine may take to show the (lazily loaded) toast:
    // record the body's animation the moment the class arrives.
    await page.evaluate(() => {
      const html = document.documentElement;
      new MutationObserver((_, observer) => {
        if (!html.classList.contains("shake")) return;
        const style = getComputedStyle(document.body);
        (window as any).__shake = { name: style.animationName, duration: style.animationDuration };
        observer.disconnect();
      }).observe(html, { attributes: true, attributeFilter: ["class"] });
    });
    for (const key of konami) await page.keyboard.press(key);
    await expect.poll(() => page.evaluate(() => (window as any).__shake)).toEqual({ name: "shake", duration: "0.5s" });
    await expect.poll(() => toastText(page)).toContain(KONAMI_TOAST.title);
    await page.waitForFunction(() => !document.documentElement.classList.contains("shake"));
  });

  it("a wrong key resets the sequence", async () => {
    const { page } = await open("/");
    for (const key of [...konami.slice(0, 6), "x", ...konami.slice(6)]) await page.keyboard.press(key);
    await page.keyboard.type("rainbo");
    await page.keyboard.press("q");
    await page.keyboard.press("w");
    // The page reacted to the last key (it is hydrated and listening): nothing was triggered.
    await expect(page.evaluate(() => document.documentElement.className)).resolves.not.toMatch(/shake|rainbow/);
    await expect(
      page
        .getByRole("region", { name: /Notifications/ })
        .locator("li")
        .count(),
    ).resolves.toBe(0);
  });

  it("typing 'rainbow' cycles colours for 10 s; reduced motion keeps still", async () => {
    const { page } = await open("/");
    await page.keyboard.type("rainbow");
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains("rainbow"))).toBe(true);
    await expect(page.evaluate(() => getComputedStyle(document.documentElement).animationName)).resolves.toBe(
      "rainbow",
    );
    await page.emulateMedia({ reducedMotion: "reduce" });
    await expect(page.evaluate(() => getComputedStyle(document.documentElement).animationName)).resolves.toBe("none");
    // As in the Konami test: the 0.5 s shake can be over before a loaded machine polls, so the
    // body's animation is recorded the moment the class arrives.
    await page.evaluate(() => {
      const html = document.documentElement;
      new MutationObserver((_, observer) => {
        if (!html.classList.contains("shake")) return;
        (window as any).__shakeAnimation = getComputedStyle(document.body).animationName;
        observer.disconnect();
      }).observe(html, { attributes: true, attributeFilter: ["class"] });
    });
    for (const key of konami) await page.keyboard.press(key);
    await expect.poll(() => page.evaluate(() => (window as any).__shakeAnimation)).toBe("none");
  });

  it("rainbow mode ends after 10 000 ms", async () => {
    const { page, context } = await open("/", DESKTOP, { ownPage: true });
    // Fake timers from here on: the rainbow's timer is set when the word is complete.
    await pauseClock(page);
    await page.keyboard.type("rainbow");
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains("rainbow"))).toBe(true);
    await page.clock.runFor(9_900);
    await expect(page.evaluate(() => document.documentElement.classList.contains("rainbow"))).resolves.toBe(true);
    await page.clock.runFor(200);
    await expect(page.evaluate(() => document.documentElement.classList.contains("rainbow"))).resolves.toBe(false);
    await context.close();
  });
});
