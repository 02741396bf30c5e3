import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hydrated, launch, newPage, screenshot, settled } from "./browser";
import { DESKTOP, hydratedWithFakeClock, pauseClock } from "./shell-helpers";

// Product rules that no test could fail on before, each checked against the words and numbers
// the product states (written out here), with and in the browser.
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const toasts = (page: Page) => page.getByRole("region", { name: "Notifications (F8)" }).locator("li");

describe("sidebar", () => {
  it("a signed-in member's sidebar ends with Log Out, a full navigation to /api/logout that signs out", async () => {
    const { page, context } = await newPage(browser, { viewport: DESKTOP });
    await page.goto("/api/login");
    await page.getByLabel("E-mail").fill("sidebar-member@example.com");
    await Promise.all([page.waitForURL((url) => url.pathname !== "/authorize"), page.getByRole("button", { name: "Sign in" }).click()]);
    await hydrated(page);
    const sidebar = page.getByTestId("desktop-sidebar");
    const logOut = sidebar.getByRole("link", { name: "Log Out" });
    await expect(logOut.getAttribute("href")).resolves.toBe("/api/logout");
    await Promise.all([page.waitForEvent("load"), logOut.click()]);
    await hydrated(page);
    await expect(sidebar.getByRole("link", { name: "Log In" }).getAttribute("href")).resolves.toBe("/api/login");
    const status = await page.evaluate(async () => (await fetch("/api/auth/user")).status);
    expect(status).toBe(401);
    await context.close();
  });
});

describe("newsletter failures", () => {
  const form = (page: Page) => page.locator("footer form").first();
  async function subscribe(page: Page) {
    await form(page).getByLabel(/^Email/).fill(`fail-${Date.now()}@example.com`);
    await form(page).getByRole("button", { name: "Subscribe" }).click();
  }

  it("a 500 and a lost connection: the destructive 'Subscription Failed' toast; no message: 'Failed to subscribe'", async () => {
    const { page, context } = await newPage(browser);
    await page.goto("/legal");
    await hydrated(page);
    const failedToast = async () => {
      const toast = toasts(page).first();
      await expect.poll(() => toast.innerText()).toContain("Subscription Failed");
      await expect(toast.innerText()).resolves.toContain("Please try again later.");
      await expect(toast.getAttribute("data-variant")).resolves.toBe("destructive");
    };

    await page.route("**/api/leads", (route) => route.fulfill({ status: 500, contentType: "application/json", body: '{"message":"Database down"}' }));
    await subscribe(page);
    await failedToast();
    await screenshot(page, "spec-newsletter-failed-toast");

    await page.reload();
    await hydrated(page);
    await page.unroute("**/api/leads");
    await page.route("**/api/leads", (route) => route.abort("connectionreset"));
    await subscribe(page);
    await failedToast();

    // A refusal without a message of its own is told with the default one.
    await page.reload();
    await hydrated(page);
    await page.unroute("**/api/leads");
    await page.route("**/api/leads", (route) => route.fulfill({ status: 429, body: "" }));
    await subscribe(page);
    await failedToast();
    await form(page).getByText("Failed to subscribe").waitFor();
    await context.close();
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

describe("subsidiary detail", () => {
  it("an unknown id: 'Subsidiary Not Found' and 'Back to Home' to /", async () => {
    const { page, context } = await newPage(browser);
    const res = await page.goto("/subsidiary/no-such-venture");
    expect(res?.status()).toBe(404);
    await hydrated(page);
    await page.getByRole("heading", { level: 1, name: "Subsidiary Not Found" }).waitFor();
    await expect(page.locator("main").innerText()).resolves.toContain("The subsidiary you're looking for doesn't exist.");
    await page.getByRole("link", { name: "Back to Home" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await context.close();
  });

  it("the header's tile is the name's first letter on the venture's colour", async () => {
    const { page, context } = await newPage(browser);
    await page.goto("/subsidiary/gaas");
    const tile = page.locator("main header span[aria-hidden='true']").filter({ hasText: /^G$/ });
    await expect(tile.count()).resolves.toBe(1);
    await expect(tile.evaluate((el) => getComputedStyle(el).backgroundColor)).resolves.toBe("rgb(36, 99, 235)");
    await context.close();
  });
});

describe("cards", () => {
  it("enter 0.1 s apart and flip in 0.4 s", async () => {
    const { page, context } = await newPage(browser, { reducedMotion: "no-preference" });
    await page.goto("/portfolio");
    const delays = await page.locator("main ul > li:has(article)").evaluateAll((lis) => lis.map((li) => getComputedStyle(li).animationDelay));
    expect(delays).toEqual(["0s", "0.1s", "0.2s", "0.3s", "0.4s", "0.5s", "0.6s", "0.7s", "0.8s"]);
    const flip = await page.locator("article > div").first().evaluate((el) => getComputedStyle(el).transitionDuration);
    expect(flip).toBe("0.4s");
    await context.close();
  });

  it("a card with a video flips on a click anywhere on its front, its own links still lead away; Enter on 'Video' flips too", async () => {
    const { page, context } = await newPage(browser);
    await page.route("https://www.youtube-nocookie.com/**", (route) => route.fulfill({ contentType: "text/html", body: "<!doctype html><title>player</title>" }));
    await page.goto("/portfolio");
    await hydrated(page);
    const card = page.locator("article").filter({ hasText: "FiscalMe" });
    await card.getByText("Fintech tools for modern finance").click();
    await expect.poll(() => card.getAttribute("data-flipped")).toBe("true");
    await settled(page);
    await screenshot(page, "spec-card-flipped-by-click");
    await card.getByRole("button", { name: "← Back" }).click();
    await expect.poll(() => card.getAttribute("data-flipped")).toBe("false");

    // From the keyboard: the Video badge is a link; Enter flips, focus goes to '← Back' and returns.
    await card.getByRole("link", { name: /^Video/ }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => card.getAttribute("data-flipped")).toBe("true");
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("← Back");
    await page.keyboard.press("Enter");
    await expect.poll(() => card.getAttribute("data-flipped")).toBe("false");
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Video: play the FiscalMe video");

    await card.getByRole("link", { name: /^Docs/ }).click();
    await page.waitForURL((url) => url.search === "?subsidiary=fiscal-me");
    await context.close();
  });
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
    await expect(page.evaluate(() => [localStorage.getItem("theme"), localStorage.getItem("emailNotifications")])).resolves.toEqual(["dark", "on"]);
    await expect(dark.isChecked()).resolves.toBe(true);
    await expect(emails.isChecked()).resolves.toBe(true);
    await context.close();
  });
});

describe("error screen", () => {
  /** Replaces a route's module so its page throws `thrown` when it renders in the browser. */
  async function breakRoute(page: Page, routeId: string, thrown: string) {
    // Routes are discovered lazily (the links on the page ask for them): wait until it is known.
    const known = await page.waitForFunction((id) => (window as any).__remixManifest.routes[id]?.module as string | undefined, routeId);
    const module = (await known.jsonValue())!;
    await page.route(
      (url) => url.pathname === module,
      (route) => route.fulfill({ contentType: "text/javascript", body: `export default function Broken() { throw ${thrown}; }` }),
    );
  }

  it("shows the error's message, reports it to the worker without the e-mail, and says 'An unexpected error occurred' without one", async () => {
    const { page, context } = await newPage(browser);
    await page.goto("/");
    await hydrated(page);
    await breakRoute(page, "routes/legal", 'new Error("Render failed for ada@example.com")');
    const report = page.waitForRequest((r) => r.url().endsWith("/api/client-errors"));
    await page.evaluate(() => (window as any).__remixRouter.navigate("/legal"));
    await page.getByRole("heading", { level: 1, name: "Something went wrong" }).waitFor();
    await expect(page.getByRole("alert").innerText()).resolves.toContain("Render failed for ada@example.com");
    await expect(page.getByRole("link", { name: "Return to Home" }).getAttribute("href")).resolves.toBe("/");
    await expect(page.getByRole("link", { name: "Reload Page" }).getAttribute("href")).resolves.toBe("/legal");
    const sent = await report;
    expect(sent.method()).toBe("POST");
    expect(JSON.parse(sent.postData()!)).toEqual({ message: "Render failed for [email]", path: "/legal" });
    expect((await sent.response())?.status()).toBe(204);
    await screenshot(page, "spec-error-screen");

    await page.getByRole("link", { name: "Return to Home" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    // The URL changes before React renders home: the first error screen must be gone first.
    await page.getByRole("heading", { level: 1, name: "Something went wrong" }).waitFor({ state: "detached" });
    await breakRoute(page, "routes/partners", "null");
    await page.evaluate(() => (window as any).__remixRouter.navigate("/partners"));
    await page.getByRole("heading", { level: 1, name: "Something went wrong" }).waitFor();
    await expect.poll(() => page.getByRole("alert").innerText()).toContain("An unexpected error occurred");
    await context.close();
  });
});
