import type { Browser, Locator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPANY_LINKS, UTILITY_LINKS } from "~/components/shell/nav-links";
import { STARTING_VENTURES } from "~/content/ventures";
import { baseURL, hydrated, launch, newPage, screenshot, settled, visitorPage } from "./browser";
import { DESKTOP, hydratedWithFakeClock, MOBILE, navLabels, pauseClock, sidebarCookie, width } from "./shell-helpers";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});
const visit = visitorPage(() => browser);

// The orders and wording are the navigation's one source (nav-links.ts), which docs/product.md cites.
const COMPANY = COMPANY_LINKS.map((l) => l.label);
const COMPANY_PATHS = COMPANY_LINKS.map((l) => l.path);

/** Whether there are icons and every one's parts are SVG shapes with a size (lucide-icon.ts writes them as markup). */
async function drawnIcons(icons: Locator) {
  const all = await icons.evaluateAll((svgs) =>
    svgs.map((svg) => {
      const parts = [...svg.children];
      return (
        parts.length > 0 &&
        parts.every((p) => p instanceof SVGGeometryElement && p.getBBox().width + p.getBBox().height > 0)
      );
    }),
  );
  return all.length > 0 && all.every(Boolean);
}

describe("sidebar on desktop", () => {
  it("lists the three groups with exactly the product's links, expanded by default", async () => {
    const { page, consoleErrors } = await visit({ viewport: DESKTOP });
    await page.goto("/portfolio");
    const aside = page.getByRole("complementary", { name: "Sidebar" });
    await expect(aside.getAttribute("data-state")).resolves.toBe("expanded");
    expect(await width(aside)).toBe(16 * 16);

    const subs = aside.getByRole("group", { name: "Subsidiaries" }).getByRole("link");
    await expect(navLabels(subs)).resolves.toEqual(STARTING_VENTURES.map((s) => s.name));
    const subHrefs = await subs.evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    expect(subHrefs).toEqual(STARTING_VENTURES.map((s) => `/subsidiary/${s.id}`));
    // Links use the canonical ids (fiscal-me, gaas), not the aliases fiscalme, get-gaas (docs/product.md, Catalogue).
    expect(subHrefs).toContain("/subsidiary/fiscal-me");
    expect(subHrefs).toContain("/subsidiary/gaas");

    const company = aside.getByRole("group", { name: "Company" }).getByRole("link");
    await expect(navLabels(company)).resolves.toEqual(COMPANY);
    await expect(company.evaluateAll((as) => as.map((a) => a.getAttribute("href")))).resolves.toEqual(COMPANY_PATHS);
    await expect(aside.getByRole("link", { name: "Portfolio" }).getAttribute("aria-current")).resolves.toBe("page");

    const utility = aside.getByRole("group", { name: "Utility" }).getByRole("link");
    // Anonymous: no Leads Dashboard; Log In in place of Log Out.
    await expect(navLabels(utility)).resolves.toEqual([...UTILITY_LINKS.map((l) => l.label), "Log In"]);
    await expect(aside.getByTestId("nav-badge").textContent()).resolves.toBe("3 new");
    await expect(aside.getByRole("link", { name: "Log In" }).getAttribute("href")).resolves.toBe("/api/login");
    await expect(aside.getByRole("link", { name: "Leads Dashboard" }).count()).resolves.toBe(0);
    await screenshot(page, "shell-desktop-expanded");
    expect(consoleErrors).toEqual([]);
  });

  it("at a laptop's 1366 × 768 it shows that it scrolls, and its Utility group keeps every item", async () => {
    const { page } = await visit({ viewport: { width: 1366, height: 768 } });
    await page.goto("/");
    await hydrated(page);
    const nav = page.getByTestId("desktop-sidebar").getByRole("navigation", { name: "Main" });
    const scroll = () => nav.evaluate((el) => ({ overflows: el.scrollHeight > el.clientHeight, top: el.scrollTop }));
    await expect(scroll()).resolves.toEqual({ overflows: true, top: 0 });
    // The edge's shadow: two covers that scroll with the list over two shadows fixed to its box.
    await expect(nav.evaluate((el) => getComputedStyle(el).backgroundAttachment)).resolves.toBe(
      "local, local, scroll, scroll",
    );
    const utility = page.getByTestId("desktop-sidebar").getByRole("group", { name: "Utility" });
    await expect(navLabels(utility.getByRole("link"))).resolves.toEqual([
      "Notifications",
      "Help",
      "Settings",
      "Log In",
    ]);
    await utility.getByRole("link", { name: "Log In" }).scrollIntoViewIfNeeded();
    await expect(utility.getByRole("link", { name: "Log In" }).isVisible()).resolves.toBe(true);
    await expect.poll(async () => (await scroll()).top).toBeGreaterThan(0);
  });

  it("'Quick find...' filters subsidiaries by name or tagline, case-insensitively", async () => {
    const { page } = await visit({ viewport: DESKTOP });
    await page.goto("/");
    await hydrated(page);
    const aside = page.getByRole("complementary", { name: "Sidebar" });
    const search = aside.getByPlaceholder("Quick find...");
    const names = () => navLabels(aside.getByRole("group", { name: "Subsidiaries" }).getByRole("link"));
    await search.pressSequentially("PET");
    await expect.poll(names).toEqual(["Park Your Pup"]); // tagline "The ultimate pet boarding experience"
    await search.fill("");
    await search.pressSequentially("sNeW");
    await expect.poll(names).toEqual(["SNews"]);
    await search.fill("zzz");
    await expect.poll(names).toEqual([]);
    await expect(aside.getByText("No matches").isVisible()).resolves.toBe(true);
    await search.fill("");
    await expect.poll(names).toEqual(STARTING_VENTURES.map((s) => s.name));
  });

  it("the trigger cycles icon → expanded → hidden → icon and stores sidebar_state for 7 days; the server paints it", async () => {
    const { page, context } = await visit({ viewport: DESKTOP });
    await page.goto("/");
    await hydrated(page);
    const aside = page.getByTestId("desktop-sidebar");
    const trigger = page.getByRole("button", { name: "Toggle sidebar" });
    const main = page.locator(".shell-content");
    const states: string[] = [];
    for (let i = 0; i < 3; i++) {
      await trigger.click();
      states.push((await page.locator(".shell").getAttribute("data-sidebar-state"))!);
    }
    // expanded → hidden → icon → expanded
    expect(states).toEqual(["hidden", "icon", "expanded"]);

    await trigger.click(); // hidden
    await expect(aside.isVisible()).resolves.toBe(false);
    await trigger.click(); // icon
    await expect.poll(() => width(aside)).toBe(3 * 16);
    const cookie = await sidebarCookie(page);
    expect(cookie?.value).toBe("icon");
    const lifetime = cookie!.expires - Date.now() / 1000;
    expect(lifetime).toBeGreaterThan(604_800 - 60);
    expect(lifetime).toBeLessThanOrEqual(604_800 + 1);
    // Icon mode: labels are for screen readers; a tooltip names each link at once (0 ms).
    await aside.getByRole("link", { name: "Investors" }).hover();
    await expect(page.getByRole("tooltip").filter({ hasText: "Investors" }).textContent()).resolves.toBe("Investors");
    await screenshot(page, "shell-desktop-icon");
    await trigger.click(); // expanded
    await expect.poll(() => width(aside)).toBe(16 * 16);
    await trigger.click(); // hidden
    await expect.poll(() => main.evaluate((el) => getComputedStyle(el).paddingLeft)).toBe("0px");

    // The first paint of the next page already has the stored state: the server HTML says so.
    for (const state of ["hidden", "icon", "expanded"]) {
      await context.addCookies([{ name: "sidebar_state", value: state, url: baseURL() }]);
      const html = await (await page.request.get("/investors")).text();
      expect(html).toContain(`data-sidebar-state="${state}"`);
      await page.goto("/investors", { waitUntil: "commit" });
      await page.waitForSelector(".shell");
      await expect(page.locator(".shell").getAttribute("data-sidebar-state")).resolves.toBe(state);
    }
  });

  it("the header's trigger names itself in a tooltip after 700 ms", async () => {
    const { page, context } = await newPage(browser, { viewport: DESKTOP });
    await pauseClock(page);
    await page.goto("/");
    await hydratedWithFakeClock(page);
    const trigger = page.getByTestId("sidebar-trigger");
    // The tooltip code arrives after hydration; then Radix's handlers sit on the button.
    await expect
      .poll(() =>
        trigger.evaluate((el) =>
          Object.entries(el).some(([k, v]) => k.startsWith("__reactProps") && !!(v as any).onPointerMove),
        ),
      )
      .toBe(true);
    await trigger.hover();
    await page.clock.runFor(650);
    await expect(page.getByRole("tooltip").count()).resolves.toBe(0);
    await page.clock.runFor(100);
    await expect.poll(() => page.getByRole("tooltip").textContent()).toBe("Toggle sidebar");
    await screenshot(page, "shell-desktop-trigger-tooltip");
    await context.close();
  });

  it("in icon mode a sidebar link names itself in a tooltip at once (0 ms), not after 700 ms", async () => {
    const { page, context } = await newPage(browser, { viewport: DESKTOP });
    await context.addCookies([{ name: "sidebar_state", value: "icon", url: baseURL() }]);
    await pauseClock(page);
    await page.goto("/");
    await hydratedWithFakeClock(page);
    const link = page.getByTestId("desktop-sidebar").getByRole("link", { name: "Portfolio", exact: true });
    // The tooltip code arrives after hydration; then Radix's handlers sit on the link.
    await expect
      .poll(() =>
        link.evaluate((el) =>
          Object.entries(el).some(([k, v]) => k.startsWith("__reactProps") && !!(v as any).onPointerMove),
        ),
      )
      .toBe(true);
    await link.hover();
    // One millisecond of page time: far below the 700 ms of the tooltips outside the sidebar.
    await page.clock.runFor(1);
    await expect.poll(() => page.getByRole("tooltip").textContent()).toBe("Portfolio");
    await context.close();
  });

  it("Ctrl+B and Cmd+B toggle the sidebar", async () => {
    const { page } = await visit({ viewport: DESKTOP });
    await page.goto("/");
    await hydrated(page);
    const state = () => page.locator(".shell").getAttribute("data-sidebar-state");
    await page.keyboard.press("Control+b");
    await expect.poll(state).toBe("hidden");
    await page.keyboard.press("Meta+b");
    await expect.poll(state).toBe("icon");
    await expect.poll(async () => (await sidebarCookie(page))?.value).toBe("icon");
  });
});

describe("sidebar on mobile (under 768 px)", () => {
  it("is an off-canvas sheet 18rem wide opened by 'Open menu', closed by 'Close menu' and by following a link", async () => {
    const { page, consoleErrors } = await visit({ viewport: MOBILE });
    await page.goto("/");
    await hydrated(page);
    await expect(page.getByTestId("desktop-sidebar").isVisible()).resolves.toBe(false);
    await page.getByRole("button", { name: "Open menu" }).click();
    const sheet = page.getByRole("dialog", { name: "Menu" });
    await sheet.waitFor(); // its code loads at the first open
    await settled(page);
    expect(await width(sheet)).toBe(18 * 16);
    // The sheet is rendered in the browser, not hydrated: its icons' drawings are SVG shapes too.
    await expect(drawnIcons(sheet.locator("svg.lucide"))).resolves.toBe(true);
    await screenshot(page, "shell-mobile-sheet");
    // The close button is off the 'Quick find...' field (and its own clear button): no overlap.
    const close = (await sheet.getByRole("button", { name: "Close menu" }).boundingBox())!;
    const find = (await sheet.getByPlaceholder("Quick find...").boundingBox())!;
    expect(close.y + close.height <= find.y || find.x + find.width <= close.x).toBe(true);
    await sheet.getByRole("button", { name: "Close menu" }).click();
    await expect.poll(() => sheet.count()).toBe(0);

    await page.keyboard.press("Control+b");
    await page.getByRole("dialog", { name: "Menu" }).waitFor();
    await page.getByRole("dialog", { name: "Menu" }).getByRole("link", { name: "Investors" }).click();
    await page.waitForURL("**/investors");
    await expect.poll(() => page.getByRole("dialog", { name: "Menu" }).count()).toBe(0);
    await expect.poll(() => page.locator("h1").first().textContent()).toBe("Investors");
    // A page the client router rendered: its icons drawn as on a server-rendered one.
    await expect(drawnIcons(page.locator("main svg.lucide"))).resolves.toBe(true);
    expect(consoleErrors).toEqual([]);
  });

  it("switches between the sheet and the floating sidebar as the viewport is resized", async () => {
    const { page } = await visit({ viewport: DESKTOP });
    await page.goto("/");
    await hydrated(page);
    await expect(page.getByTestId("desktop-sidebar").isVisible()).resolves.toBe(true);
    await page.setViewportSize({ width: 767, height: 800 });
    await expect.poll(() => page.getByTestId("desktop-sidebar").isVisible()).toBe(false);
    await expect(page.getByRole("button", { name: "Open menu" }).isVisible()).resolves.toBe(true);
    await page.setViewportSize({ width: 768, height: 800 });
    await expect.poll(() => page.getByTestId("desktop-sidebar").isVisible()).toBe(true);
    await expect(page.getByRole("button", { name: "Open menu" }).isVisible()).resolves.toBe(false);
  });
});

describe("sidebar", () => {
  it("a signed-in member's sidebar ends with Log Out, a full navigation to /api/logout that signs out", async () => {
    const { page } = await visit({ viewport: DESKTOP });
    await page.goto("/api/login");
    await page.getByLabel("E-mail").fill("sidebar-member@example.com");
    await Promise.all([
      page.waitForURL((url) => url.pathname !== "/authorize"),
      page.getByRole("button", { name: "Sign in" }).click(),
    ]);
    await hydrated(page);
    const sidebar = page.getByTestId("desktop-sidebar");
    const logOut = sidebar.getByRole("link", { name: "Log Out" });
    await expect(logOut.getAttribute("href")).resolves.toBe("/api/logout");
    await Promise.all([page.waitForEvent("load"), logOut.click()]);
    await hydrated(page);
    await expect(sidebar.getByRole("link", { name: "Log In" }).getAttribute("href")).resolves.toBe("/api/login");
    const status = await page.evaluate(async () => (await fetch("/api/auth/user")).status);
    expect(status).toBe(401);
  });
});
