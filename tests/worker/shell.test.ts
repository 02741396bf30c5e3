import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { toastHeaders } from "~/utils/flash.server";

const ORIGIN = "https://afx.test";
const get = (path: string, init?: RequestInit) => SELF.fetch(`${ORIGIN}${path}`, { redirect: "manual", ...init });

describe("the shell as the server renders it", () => {
  it("paints the sidebar state from the sidebar_state cookie (expanded without one)", async () => {
    await expect(get("/").then((r) => r.text())).resolves.toContain('data-sidebar-state="expanded"');
    for (const state of ["icon", "hidden", "expanded"]) {
      const html = await get("/portfolio", { headers: { Cookie: `a=b; sidebar_state=${state}` } }).then((r) =>
        r.text(),
      );
      expect(html).toContain(`data-sidebar-state="${state}"`);
      expect(html).toMatch(new RegExp(`<aside[^>]*data-state="${state}"`));
    }
    const junk = await get("/", { headers: { Cookie: "sidebar_state=%3Cscript%3E" } }).then((r) => r.text());
    expect(junk).toContain('data-sidebar-state="expanded"');
  });

  it("renders every sidebar, header and footer link in the HTML, and the footer's signup block in place", async () => {
    const html = await get("/").then((r) => r.text());
    for (const href of [
      "/portfolio",
      "/blog",
      "/investors",
      "/funding",
      "/documents",
      "/partners",
      "/legal",
      "/sitemap",
      "/notifications",
      "/help",
      "/settings",
      "/api/login",
      "/store",
      "/subsidiary/fiscal-me",
      "/subsidiary/gaas",
    ]) {
      expect(html).toContain(`href="${href}"`);
    }
    expect(html).toContain(`href="tel:${env.CONTACT_PHONE}"`);
    expect(html).toContain(`href="mailto:${env.CONTACT_EMAIL}"`);
    expect(html).toContain(`href="${env.STORE_URL}"`);
    expect(html).toContain("© 2025 AFX Holding Group. All rights reserved.");
    // The lazily hydrated footer form is in the first HTML, not in a streamed-later boundary
    // that only a script could reveal (which would hide it with JavaScript off).
    const footer = html.slice(html.indexOf("<footer"), html.indexOf("</footer>"));
    expect(footer).toContain('data-variant="compact"');
    expect(footer).not.toContain("<!--$?-->");
  });

  it("shows a flash toast once, as a status message, and clears its cookie", async () => {
    const headers = await toastHeaders(env, new Request(`${ORIGIN}/`), {
      title: "Saved",
      description: "Your change is saved.",
    });
    const [cookie = ""] = headers.get("Set-Cookie")!.split(";");
    const res = await get("/investors", { headers: { Cookie: cookie } });
    const html = await res.text();
    expect(html).toMatch(/role="status"[^>]*data-testid="flash-status"/);
    expect(html).toContain("Your change is saved.");
    const cleared = res.headers.getSetCookie().find((c) => c.startsWith(cookie.slice(0, cookie.indexOf("="))));
    expect(cleared).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
    const again = await get("/investors").then((r) => r.text());
    expect(again).not.toContain('data-testid="flash-status"');
  });
});
