import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NEWSLETTER_TEXT as T, NEWSLETTER_TOASTS, signupAnchor } from "~/features/leads/newsletter";
import { confirmFromInbox } from "./account";
import { hydrated, launch, newPage, screenshot, visitorPage } from "./browser";

// (Toast texts are matched with .first(): Radix renders each toast and its live-region announcement.)

// The newsletter signup block in Chromium, from each place that shows it, with JavaScript
// on (no navigation, toasts) and off (303 back to the same page, result shown there).

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});
const visit = visitorPage(() => browser);

let n = 0;
const uniqueEmail = (tag: string) => `${tag}-${Date.now().toString(36)}-${n++}@example.com`;

const block = (page: Page, source: string) => page.locator(`#${signupAnchor(source)}`);

async function fill(page: Page, source: string, values: { email: string; firstName?: string; lastName?: string }) {
  const form = block(page, source);
  if (values.firstName !== undefined) await form.getByLabel("First name").fill(values.firstName);
  if (values.lastName !== undefined) await form.getByLabel("Last name (optional)").fill(values.lastName);
  await form.getByLabel(/^Email/).fill(values.email);
}

/** The signup's POST, whatever its query (Remix's fetcher adds `?_data=`). */
const signupApi = (url: URL) => url.pathname === "/api/leads";

const submit = (page: Page, source: string) => block(page, source).getByRole("button", { name: T.submit }).click();

/** Counts full-page loads, so "no navigation" can be checked. */
function countLoads(page: Page) {
  let loads = 0;
  page.on("load", () => loads++);
  return () => loads;
}

/** The exit popup, armed 3 s after load (time jumped with the clock installed before the page loaded), opened by leaving through the top edge. */
async function openExitPopup(page: Page) {
  await page.clock.fastForward(3_200);
  await page.mouse.move(400, 200);
  await page.mouse.move(400, 5);
  await page.evaluate(() =>
    document.documentElement.dispatchEvent(
      new MouseEvent("mouseout", { bubbles: true, clientX: 400, clientY: -1, relatedTarget: null }),
    ),
  );
  await page.getByRole("dialog", { name: "Wait! Before you go..." }).waitFor();
}

describe("newsletter with JavaScript", () => {
  it("footer: 'Subscribing...' while it runs, then the success text and toast, without navigating", async () => {
    const { page, consoleErrors } = await visit();
    await page.goto("/portfolio");
    await hydrated(page);
    const loads = countLoads(page);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(signupApi, async (route) => {
      await held;
      await route.continue();
    });
    await fill(page, "footer", { email: uniqueEmail("footer-js") });
    await submit(page, "footer");
    const button = block(page, "footer").getByRole("button", { name: T.submitting });
    await button.waitFor();
    expect(await button.isDisabled()).toBe(true);
    release();
    await block(page, "footer").getByText(T.success).waitFor();
    await page.getByText(NEWSLETTER_TOASTS.success.title).first().waitFor();
    await page.getByText(NEWSLETTER_TOASTS.success.description).first().waitFor();
    expect(loads()).toBe(0);
    expect(new URL(page.url()).pathname).toBe("/portfolio");
    await screenshot(page, "newsletter-footer-js-success");
    expect(consoleErrors).toEqual([]);
  });

  it("blog: the full form subscribes with a first name", async () => {
    const { page } = await visit();
    await page.goto("/blog");
    await hydrated(page);
    await fill(page, "blog", { firstName: "Ada", lastName: "Lovelace", email: uniqueEmail("blog-js") });
    await submit(page, "blog");
    await block(page, "blog").getByText(T.success).waitFor();
    await page.getByText(NEWSLETTER_TOASTS.success.title).first().waitFor();
  });

  it("popup: the exit-intent dialog's form subscribes", async () => {
    const { page, context } = await newPage(browser);
    await page.clock.install();
    await page.goto("/investors");
    await hydrated(page);
    await openExitPopup(page);
    await fill(page, "popup", { firstName: "Grace", email: uniqueEmail("popup-js") });
    await submit(page, "popup");
    await block(page, "popup").getByText(T.success).waitFor();
    await page.getByText(NEWSLETTER_TOASTS.success.title).first().waitFor();
    await screenshot(page, "newsletter-popup-js-success");
    await context.close();
  });

  it("a repeat shows 'Already Subscribed' and keeps the form", async () => {
    const email = uniqueEmail("repeat-js");
    const { page } = await visit();
    await page.goto("/blog");
    await hydrated(page);
    await fill(page, "blog", { firstName: "Ada", email });
    await submit(page, "blog");
    await block(page, "blog").getByText(T.success).waitFor();
    // "Already Subscribed" is for a confirmed address (a pending one is told the same as a first signup).
    await confirmFromInbox(page, email);
    await page.reload();
    await hydrated(page);
    await fill(page, "blog", { firstName: "Ada", email: email.toUpperCase() });
    await submit(page, "blog");
    await page.getByText(NEWSLETTER_TOASTS.already.title).first().waitFor();
    await page.getByText(NEWSLETTER_TOASTS.already.description).first().waitFor();
    // The form stays, value kept, ready again.
    await block(page, "blog").getByRole("button", { name: T.submit }).waitFor();
    expect(await block(page, "blog").getByText(T.success).count()).toBe(0);
    expect(
      await block(page, "blog")
        .getByLabel(/^Email/)
        .inputValue(),
    ).toBe(email.toUpperCase());
  });

  it("an invalid e-mail shows 'Please enter a valid email address.' under the field, in red", async () => {
    const { page } = await visit();
    await page.goto("/blog");
    await hydrated(page);
    await fill(page, "blog", { firstName: "", email: "not-an-email" });
    await submit(page, "blog");
    const emailError = block(page, "blog").getByText(T.invalidEmail);
    await emailError.waitFor();
    await block(page, "blog").getByText(T.firstNameRequired).waitFor();
    const input = block(page, "blog").getByLabel(/^Email/);
    expect(await input.getAttribute("aria-invalid")).toBe("true");
    expect(await input.inputValue()).toBe("not-an-email");
    expect(await emailError.evaluate((el) => getComputedStyle(el).color)).toBe(
      await page.evaluate(() => {
        const probe = document.createElement("span");
        probe.className = "text-destructive";
        document.body.appendChild(probe);
        const color = getComputedStyle(probe).color;
        probe.remove();
        return color;
      }),
    );
    await screenshot(page, "newsletter-blog-js-invalid");
  });
});

describe("after a signup with JavaScript, only data that shows leads reloads", () => {
  /** Remix's data requests, one per loader (`/path?_data=<route id>`), as "path route-id". */
  const dataRequests = (page: Page) => {
    const seen: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      const route = url.searchParams.get("_data");
      if (route) seen.push(`${url.pathname} ${route}`);
    });
    return seen;
  };

  it("a page without lead data loads nothing after the signup", async () => {
    const { page } = await visit();
    await page.goto("/portfolio");
    await hydrated(page);
    const seen = dataRequests(page);
    await fill(page, "footer", { email: uniqueEmail("no-reload") });
    await submit(page, "footer");
    await block(page, "footer").getByText(T.success).waitFor();
    // A client navigation afterwards, to a page with a loader (one data request per loader): any
    // reload the signup caused would have been requested first.
    await page.getByRole("link", { name: "Documents", exact: true }).first().click();
    await page.waitForURL((url) => url.pathname !== "/portfolio");
    await expect.poll(() => seen.length).toBeGreaterThan(0);
    expect(seen[0]).not.toMatch(/^\/portfolio /);
  });

  it("Settings reloads and its newsletter switch turns on after a footer signup of the member's e-mail", async () => {
    const email = uniqueEmail("settings-reload");
    const { page } = await visit();
    await page.goto("/api/login?returnTo=/settings");
    await page.getByLabel("E-mail").fill(email);
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/settings"),
      page.getByRole("button", { name: "Sign in" }).click(),
    ]);
    await hydrated(page);
    const toggle = page.getByRole("switch", { name: "Newsletter" });
    expect(await toggle.isChecked()).toBe(false);
    const seen = dataRequests(page);
    await fill(page, "footer", { email });
    await submit(page, "footer");
    await block(page, "footer").getByText(T.success).waitFor();
    await expect.poll(() => seen).toContain("/settings routes/settings");
    await expect.poll(() => toggle.isChecked()).toBe(true);
  });
});

describe("newsletter without JavaScript", () => {
  const noJs = visitorPage(() => browser, { javaScriptEnabled: false });

  it("footer: lands back on the same page with the success text", async () => {
    const { page } = await noJs();
    await page.goto("/portfolio?ref=x");
    await fill(page, "footer", { email: uniqueEmail("footer-nojs") });
    await Promise.all([page.waitForURL(/\/portfolio\?ref=x#newsletter-footer$/), submit(page, "footer")]);
    await block(page, "footer").getByText(T.success).waitFor();
    await screenshot(page, "newsletter-footer-nojs-success");
    // Shown once: a reload shows the form again.
    await page.reload();
    await block(page, "footer").getByRole("button", { name: T.submit }).waitFor();
  });

  it("blog: the full form lands back on /blog with the success text", async () => {
    const { page } = await noJs();
    await page.goto("/blog");
    await fill(page, "blog", { firstName: "Alan", email: uniqueEmail("blog-nojs") });
    await Promise.all([page.waitForURL(/\/blog#newsletter-blog$/), submit(page, "blog")]);
    await block(page, "blog").getByText(T.success).waitFor();
  });

  it("field errors in red under their fields, typed values kept", async () => {
    const { page } = await noJs();
    await page.goto("/blog");
    await fill(page, "blog", { firstName: "", lastName: "Hopper", email: "grace-at-example" });
    await Promise.all([page.waitForURL(/#newsletter-blog$/), submit(page, "blog")]);
    const form = block(page, "blog");
    await form.getByText(T.invalidEmail).waitFor();
    await form.getByText(T.firstNameRequired).waitFor();
    expect(await form.getByLabel(/^Email/).inputValue()).toBe("grace-at-example");
    expect(await form.getByLabel("Last name (optional)").inputValue()).toBe("Hopper");
    await screenshot(page, "newsletter-blog-nojs-invalid");
  });

  it("a repeat says so and keeps the e-mail", async () => {
    const email = uniqueEmail("repeat-nojs");
    const { page } = await noJs();
    await page.goto("/portfolio");
    await fill(page, "footer", { email });
    await Promise.all([page.waitForURL(/#newsletter-footer$/), submit(page, "footer")]);
    await block(page, "footer").getByText(T.success).waitFor();
    await confirmFromInbox(page, email);
    await page.goto("/portfolio");
    await fill(page, "footer", { email: ` ${email.toUpperCase()}` });
    await Promise.all([page.waitForURL(/#newsletter-footer$/), submit(page, "footer")]);
    await block(page, "footer").getByText(NEWSLETTER_TOASTS.already.description).waitFor();
    expect(
      await block(page, "footer")
        .getByLabel(/^Email/)
        .inputValue(),
    ).toBe(email.toUpperCase());
  });
});

describe("newsletter failures", () => {
  const toasts = (page: Page) => page.getByRole("region", { name: "Notifications (F8)" }).locator("li");
  const form = (page: Page) => page.locator("footer form").first();
  async function subscribe(page: Page) {
    await form(page)
      .getByLabel(/^Email/)
      .fill(`fail-${Date.now()}@example.com`);
    await form(page).getByRole("button", { name: "Subscribe" }).click();
  }

  it("a 500 and a lost connection: the destructive 'Subscription Failed' toast; no message: 'Failed to subscribe'", async () => {
    const { page } = await visit();
    await page.goto("/legal");
    await hydrated(page);
    const failedToast = async () => {
      const toast = toasts(page).first();
      await expect.poll(() => toast.innerText()).toContain("Subscription Failed");
      await expect(toast.innerText()).resolves.toContain("Please try again later.");
      await expect(toast.getAttribute("data-variant")).resolves.toBe("destructive");
    };

    await page.route(signupApi, (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: '{"message":"Database down"}' }),
    );
    await subscribe(page);
    await failedToast();
    await screenshot(page, "newsletter-failed-toast");

    await page.reload();
    await hydrated(page);
    await page.unroute(signupApi);
    await page.route(signupApi, (route) => route.abort("connectionreset"));
    await subscribe(page);
    await failedToast();

    // A refusal without a message of its own is told with the default one.
    await page.reload();
    await hydrated(page);
    await page.unroute(signupApi);
    await page.route(signupApi, (route) => route.fulfill({ status: 429, body: "" }));
    await subscribe(page);
    await failedToast();
    await form(page).getByText("Failed to subscribe").waitFor();
  });
});
