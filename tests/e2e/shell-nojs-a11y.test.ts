import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hydrated, launch, screenshot, visitorPage } from "./browser";
import { DESKTOP, MOBILE } from "./shell-helpers";
import { expectDefined } from "../fixtures/expect-defined";
import { FOOTER_QUICK_LINKS } from "~/components/shell/nav-links";

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});
const visit = visitorPage(() => browser);

describe("the shell with JavaScript off", () => {
  const noJs = visitorPage(() => browser, { javaScriptEnabled: false });

  it("desktop: the sidebar, header and footer links navigate and the page is readable", async () => {
    const { page } = await noJs({ viewport: DESKTOP });
    await page.goto("/");
    const aside = page.getByRole("complementary", { name: "Sidebar" });
    await aside.getByRole("link", { name: "Investors" }).click();
    await page.waitForURL("**/investors");
    await aside.getByRole("link", { name: "GaaS" }).click();
    await page.waitForURL("**/subsidiary/gaas");
    await page.getByRole("link", { name: "AFX Holding Group home" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await page.getByRole("contentinfo").getByRole("link", { name: "Sitemap" }).click();
    await page.waitForURL("**/sitemap");
    await page.getByRole("contentinfo").getByRole("link", { name: "Terms" }).click();
    await page.waitForURL("**/legal");
    await expect(page.getByRole("banner").getByRole("link", { name: /Store/ }).getAttribute("target")).resolves.toBe(
      "_blank",
    );
    // No dead controls: the sidebar trigger needs JavaScript, so it is not shown without it.
    await expect(page.getByTestId("sidebar-trigger").isVisible()).resolves.toBe(false);
    await screenshot(page, "shell-nojs-desktop");
  });

  it("mobile: 'Open menu' unfolds the sidebar's links, which navigate; 'Contact' shows call, e-mail, LinkedIn, store", async () => {
    const { page } = await noJs({ viewport: MOBILE });
    await page.goto("/");
    const summary = page.getByTestId("mobile-menu-fallback").locator("summary");
    // The disclosure shows the page's one sidebar (no second copy in the document).
    const menu = page.getByRole("complementary", { name: "Sidebar" });
    await expect(page.locator("aside").count()).resolves.toBe(1);
    await expect(summary.innerText()).resolves.toBe("Open menu");
    await expect(menu.getByRole("link", { name: "Investors" }).isVisible()).resolves.toBe(false);
    await summary.click();
    await expect(summary.innerText()).resolves.toBe("Close menu");
    await screenshot(page, "shell-nojs-mobile-menu");
    await menu.getByRole("link", { name: "Investors" }).click();
    await page.waitForURL("**/investors");
    await expect(page.getByRole("heading", { level: 1 }).first().isVisible()).resolves.toBe(true);
    // The menu starts closed on the next page; a venture link from it works too.
    await expect(menu.getByRole("link", { name: "GaaS" }).isVisible()).resolves.toBe(false);
    await summary.click();
    await menu.getByRole("link", { name: "GaaS" }).click();
    await page.waitForURL("**/subsidiary/gaas");

    const contact = page.getByTestId("contact-menu");
    await contact.locator("summary").click();
    const links = contact.getByRole("link");
    await expect(links.evaluateAll((as) => as.map((a) => (a as HTMLElement).offsetParent !== null))).resolves.toEqual([
      true,
      true,
      true,
      true,
    ]);
    const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    expect(hrefs[0]).toMatch(/^tel:/);
    expect(hrefs[1]).toMatch(/^mailto:/);
    expect(hrefs[2]).toMatch(/^https:\/\//);
    expect(hrefs[3]).toMatch(/^https:\/\//);
  });
});

describe("headers and footer", () => {
  it("mobile contact dropdown: call, e-mail, LinkedIn, store; Escape closes it", async () => {
    const { page } = await visit({ viewport: MOBILE });
    await page.goto("/");
    await hydrated(page);
    const contact = page.getByTestId("contact-menu");
    await contact.locator("summary").click();
    const hrefs = await contact.getByRole("link").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    expect(hrefs[0]).toMatch(/^tel:/);
    expect(hrefs[1]).toMatch(/^mailto:/);
    expect(hrefs[2]).toMatch(/^https:\/\//);
    expect(hrefs[3]).toMatch(/^https:\/\//);
    await screenshot(page, "shell-mobile-contact");
    await page.keyboard.press("Escape");
    await expect.poll(() => contact.getAttribute("open")).toBeNull();
  });

  it("logo block: the group name, seven letter badges red → purple, GROUP; it links home", async () => {
    const { page } = await visit({ viewport: DESKTOP });
    await page.goto("/investors");
    const logo = page.getByRole("banner").getByRole("link", { name: "AFX Holding Group home" });
    await expect(logo.getAttribute("href")).resolves.toBe("/");
    await expect(logo.innerText()).resolves.toMatch(/^AFX\s*H\s*O\s*L\s*D\s*I\s*N\s*G\s*GROUP$/);
    // Each badge's background as a hue (the browser resolves the colour; a canvas turns it into RGB).
    const hues = await logo.locator("span[aria-hidden] > span").evaluateAll((badges) =>
      badges.map((b) => {
        const ctx = document.createElement("canvas").getContext("2d")!;
        ctx.fillStyle = getComputedStyle(b).backgroundColor;
        ctx.fillRect(0, 0, 1, 1);
        // (Runs in the page: an RGBA pixel always has its four channels.)
        const [r = 0, g = 0, bl = 0] = Array.from(ctx.getImageData(0, 0, 1, 1).data).map((v) => v / 255);
        const max = Math.max(r, g, bl);
        const d = max - Math.min(r, g, bl);
        const h = max === r ? ((g - bl) / d) % 6 : max === g ? (bl - r) / d + 2 : (r - g) / d + 4;
        return Math.round((h * 60 + 360) % 360);
      }),
    );
    const bands: [string, number, number][] = [
      ["red", 345, 10],
      ["orange", 20, 40],
      ["yellow", 45, 65],
      ["green", 100, 160],
      ["cyan", 170, 200],
      ["blue", 205, 245],
      ["purple", 260, 300],
    ];
    expect(
      hues.map((h, i) => {
        const [name, lo, hi] = expectDefined(bands[i], `a colour band for badge ${i}`);
        return lo > hi ? (h >= lo || h <= hi ? name : h) : h >= lo && h <= hi ? name : h;
      }),
    ).toEqual(bands.map(([name]) => name));
  });

  it("footer: contact links from configuration, quick links, Privacy and Terms to /legal, copyright", async () => {
    const { page } = await visit({ viewport: DESKTOP });
    await page.goto("/");
    const footer = page.getByRole("contentinfo");
    const quick = footer.getByRole("navigation", { name: "Quick Links" }).getByRole("link");
    await expect(quick.allInnerTexts()).resolves.toEqual(FOOTER_QUICK_LINKS.map((l) => l.label));
    await expect(footer.getByRole("link", { name: "Privacy", exact: true }).getAttribute("href")).resolves.toBe(
      "/legal",
    );
    await expect(footer.getByRole("link", { name: "Terms", exact: true }).getAttribute("href")).resolves.toBe("/legal");
    await expect(footer.getByText("© 2025 AFX Holding Group. All rights reserved.").isVisible()).resolves.toBe(true);
    await expect(footer.locator('a[href^="tel:"]').count()).resolves.toBe(1);
    await expect(footer.locator('a[href^="mailto:"]').count()).resolves.toBe(1);
    await expect(footer.locator('[data-variant="compact"]').count()).resolves.toBe(1);
  });
});

describe("not-found page and error screen", () => {
  it("404: texts, attempted path, Popular Pages, Go to Homepage and Go Back", async () => {
    const { page } = await visit({ viewport: DESKTOP });
    await page.goto("/portfolio");
    await page.goto("/no/such/page");
    await hydrated(page);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Page Not Found");
    await expect(
      page.getByText("The page you're looking for doesn't exist or has been moved.").isVisible(),
    ).resolves.toBe(true);
    await expect(page.getByTestId("attempted-path").textContent()).resolves.toBe("/no/such/page");
    const popular = page.getByRole("navigation", { name: "Popular Pages" }).getByRole("link");
    await expect(popular.evaluateAll((as) => as.map((a) => a.getAttribute("href")))).resolves.toEqual([
      "/portfolio",
      "/funding",
      "/investors",
      "/consultancy",
      "/documents",
      "/blog",
    ]);
    await page.getByRole("button", { name: "Go Back" }).click();
    await page.waitForURL("**/portfolio");
    await page.goForward();
    await hydrated(page);
    await page.getByRole("link", { name: "Go to Homepage" }).click();
    await page.waitForURL((url) => url.pathname === "/");
  });

  it("error screen: a failed navigation shows it; 'Return to Home' clears the error and goes to /", async () => {
    const { page } = await visit({ viewport: DESKTOP });
    await page.goto("/");
    await hydrated(page);
    // The server fails the next page's data (its loader's `?_data=` request): the route errors as
    // it would on any uncaught error.
    const documentsData = (url: URL) => url.pathname === "/documents" && url.searchParams.has("_data");
    const sidebarLink = () =>
      page.getByRole("complementary", { name: "Sidebar" }).getByRole("link", { name: "Documents", exact: true });
    await page.route(documentsData, (route) => route.fulfill({ status: 500, contentType: "text/plain", body: "boom" }));
    await sidebarLink().click();
    await page.getByRole("heading", { level: 1, name: "Something went wrong" }).waitFor();
    await expect(page.getByRole("alert").filter({ hasText: "Something went wrong" }).isVisible()).resolves.toBe(true);
    const reload = page.getByRole("link", { name: "Reload Page" });
    await expect(reload.getAttribute("href")).resolves.toBe("/documents");
    await screenshot(page, "shell-error-screen");
    await page.unroute(documentsData);
    await page.getByRole("link", { name: "Return to Home" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await page.getByRole("link", { name: "Explore Portfolio" }).waitFor();
    await expect(page.getByText("Something went wrong").count()).resolves.toBe(0);
    // Cleared for good: the page that failed now opens.
    await sidebarLink().click();
    await page.waitForURL("**/documents");
    await expect(page.getByText("Something went wrong").count()).resolves.toBe(0);
  });
});
