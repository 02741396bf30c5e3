import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pages } from "~/content/pages";
import { STARTING_VENTURES } from "~/content/ventures";
import { launch, newPage, ready, screenshot, settled, visitorPage } from "./browser";
import { axeViolations } from "./axe";

// The whole sign-in in Chromium against the local OpenID provider that global-setup started.
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});
const visit = visitorPage(() => browser);

/** From the app to the provider's sign-in page, type the e-mail (and name), back to the app. */
async function signIn(page: Page, email: string, name = "", from = "/api/login") {
  await page.goto(from);
  await page.getByLabel("E-mail").fill(email);
  if (name) await page.getByLabel("Name (optional)").fill(name);
  await Promise.all([
    page.waitForURL((url) => url.pathname !== "/authorize"),
    page.getByRole("button", { name: "Sign in" }).click(),
  ]);
  await ready(page);
}

async function authUser(page: Page) {
  return page.evaluate(async () => {
    const res = await fetch("/api/auth/user");
    return { status: res.status, body: await res.json() };
  });
}

describe("sign-in in Chromium", () => {
  it("an admin: full round trip to the dashboard, then Log Out ends the session", async () => {
    const { page, context, consoleErrors } = await visit();
    await signIn(page, "ada.admin@example.com", "Ada Admin");
    expect(new URL(page.url()).pathname).toBe("/");
    await expect(page.locator("h1").first().textContent()).resolves.toBe("Welcome back, Ada");
    await expect(page.getByTestId("profile-email").textContent()).resolves.toBe("ada.admin@example.com");
    await expect(page.getByTestId("member-since").textContent()).resolves.toMatch(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
    await expect(page.getByTestId("subsidiary-count").textContent()).resolves.toBe(String(STARTING_VENTURES.length));
    await expect(page.getByRole("heading", { name: "Your AFX Portfolio" }).isVisible()).resolves.toBe(true);
    // The sidebar header shows the user (initials as the avatar fallback) and the admin-only link.
    const sidebar = page.getByTestId("desktop-sidebar");
    await expect(sidebar.getByTestId("sidebar-user").textContent()).resolves.toBe("AAAda Adminada.admin@example.com");
    await expect(sidebar.getByRole("link", { name: "Leads Dashboard" }).count()).resolves.toBe(1);
    // WCAG 2.2 AA: nothing for axe to find on the dashboard, in either theme.
    for (const theme of ["dark", "light"]) {
      await page.evaluate((t) => document.documentElement.classList.toggle("dark", t === "dark"), theme);
      // Colours ease to the new theme; judge contrast once they have.
      await settled(page);
      expect(
        (await axeViolations(page, ["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa"])).map((v) => `${theme}: ${v}`),
      ).toEqual([]);
    }
    await page.evaluate(() => document.documentElement.classList.add("dark"));
    const me = await authUser(page);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      role: "admin",
      email: "ada.admin@example.com",
      firstName: "Ada",
      lastName: "Admin",
    });

    // 'View Portfolio' brings the grid into view (smoothly, without leaving the page).
    await page.getByRole("link", { name: "View Portfolio" }).click();
    await page.waitForFunction(() => {
      const r = document.getElementById("portfolio")!.getBoundingClientRect();
      return r.top >= 0 && r.top < window.innerHeight / 2;
    });
    expect(new URL(page.url()).hash).toBe("#portfolio");
    await screenshot(page, "auth-dashboard-admin");

    // The admin, and only the admin, reaches the leads dashboard.
    const leads = await page.goto("/admin/leads");
    expect(leads?.status()).toBe(200);
    await expect(page.locator("h1").first().textContent()).resolves.toBe(pages.leads.heading);
    await page.goto("/");

    await Promise.all([
      page.waitForURL((url) => url.pathname === "/"),
      page.getByRole("main").getByRole("link", { name: "Log Out" }).click(),
    ]);
    await ready(page);
    await expect(page.locator("h1").first().textContent()).resolves.not.toMatch(/Welcome back/);
    expect((await authUser(page)).status).toBe(401);
    const cookies = await context.cookies();
    expect(cookies.map((c) => c.name)).not.toContain("afx_session");
    expect(consoleErrors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  });

  it("a member: dashboard, no admin page (404), returnTo honoured, Log Out", async () => {
    const { page, context } = await visit();
    await signIn(page, "member@example.com", "", "/api/login?returnTo=/portfolio");
    expect(new URL(page.url()).pathname).toBe("/portfolio");
    await page.goto("/");
    await expect(page.locator("h1").first().textContent()).resolves.toBe("Welcome back");
    await expect(page.getByTestId("profile-email").textContent()).resolves.toBe("member@example.com");
    expect((await authUser(page)).body).toMatchObject({ role: "member", email: "member@example.com" });
    // A member sees themself in the sidebar, but no Leads Dashboard link.
    const sidebar = page.getByTestId("desktop-sidebar");
    await expect(sidebar.getByTestId("sidebar-user").textContent()).resolves.toContain("member@example.com");
    await expect(page.getByRole("link", { name: "Leads Dashboard" }).count()).resolves.toBe(0);

    const leads = await page.goto("/admin/leads");
    expect(leads?.status()).toBe(404);
    await expect(page.locator("h1").first().textContent()).resolves.toBe("Page Not Found");

    // The session cookie is HttpOnly and SameSite=Lax (plain-http localhost: no Secure, no prefix).
    const session = (await context.cookies()).find((c) => c.name === "afx_session")!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", secure: false });
    expect(session.expires - Date.now() / 1000).toBeGreaterThan(29 * 24 * 3600);

    await page.goto("/");
    // An image on our own page pointed at /api/logout (a feed's cover image) signs nobody out:
    // Chromium's Fetch Metadata names it a no-cors image.
    const [image] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === "/api/logout"),
      page.evaluate(() => {
        const img = new Image();
        img.src = "/api/logout";
        document.body.appendChild(img);
      }),
    ]);
    expect(image.status()).toBe(403);
    expect((await authUser(page)).status).toBe(200);
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/"),
      page.getByRole("main").getByRole("link", { name: "Log Out" }).click(),
    ]);
    expect((await authUser(page)).status).toBe(401);
    expect((await page.goto("/admin/leads"))?.status()).toBe(404);
  });

  it("works with JavaScript off (full navigations only)", async () => {
    const { page, context } = await newPage(browser, { javaScriptEnabled: false });
    await signIn(page, "nojs@example.com", "Noah Script");
    await expect(page.locator("h1").first().textContent()).resolves.toBe("Welcome back, Noah");
    await page.getByRole("main").getByRole("link", { name: "Log Out" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await expect(page.locator("h1").first().textContent()).resolves.not.toMatch(/Welcome back/);
    await context.close();
  });

  it("anonymous visitors get the not-found page at /admin/leads", async () => {
    const { page } = await visit();
    const res = await page.goto("/admin/leads");
    expect(res?.status()).toBe(404);
    await expect(page.locator("h1").first().textContent()).resolves.toBe("Page Not Found");
  });

  it("cancelling at the provider returns to the page it started from, signed out, with a neutral note", async () => {
    const { page } = await visit();
    await page.goto("/api/login?returnTo=/portfolio");
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/portfolio"),
      page.getByRole("button", { name: "Cancel" }).click(),
    ]);
    await page.getByText("Sign-in cancelled").first().waitFor();
    await expect(page.getByText("Sign-in failed").count()).resolves.toBe(0);
    const status = await page.evaluate(
      () => (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).responseStatus,
    );
    expect(status).toBe(200);
    expect((await authUser(page)).status).toBe(401);
  });
});
