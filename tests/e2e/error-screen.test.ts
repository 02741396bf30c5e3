import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hydrated, launch, newPage, screenshot } from "./browser";

// The root error boundary in the browser: the error's message, the report to the worker (without
// an e-mail address), and the default message for an error without one.
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe("error screen", () => {
  /** Replaces a route's module so its page throws `thrown` when it renders in the browser. */
  async function breakRoute(page: Page, routeId: string, thrown: string) {
    // Routes are discovered lazily (the links on the page ask for them): wait until it is known.
    const known = await page.waitForFunction(
      (id) => (window as any).__remixManifest.routes[id]?.module as string | undefined,
      routeId,
    );
    const module = (await known.jsonValue())!;
    await page.route(
      (url) => url.pathname === module,
      (route) =>
        route.fulfill({
          contentType: "text/javascript",
          body: `export default function Broken() { throw ${thrown}; }`,
        }),
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
    await screenshot(page, "error-screen");

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
