// No side effects from another site's GET (docs/decisions/059-limits-gets-and-revocation.md): a
// top-level navigation from another site carries SameSite=Lax cookies, so a link or redirect on
// any site could sign a member out or make an admin export the leads (an audit entry in their
// name, a file of personal data in their downloads). The cross-site cases failed before (issue 33).
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { get, type Jar, signIn } from "./auth-helpers";
import { insertLeads } from "./leads-helpers";

const navigation = (site?: string) => ({
  headers: { Accept: "text/html", ...(site ? { "Sec-Fetch-Site": site } : {}) },
});
const signedIn = async (jar: Jar) => (await get("/api/auth/user", jar)).status === 200;
const audited = async () =>
  (await env.DB.prepare("SELECT action FROM audit_log WHERE action = 'leads.export'").all()).results.length;

beforeEach(async () => {
  await env.DB.batch(["audit_log", "leads"].map((t) => env.DB.prepare(`DELETE FROM ${t}`)));
});

describe("GET /api/logout", () => {
  it.each(["cross-site", "same-site"])(
    "a navigation from another site (%s) ends nothing and goes home",
    async (site) => {
      const { jar } = await signIn(`kept-${site}@example.com`);
      const res = await get("/api/logout", jar, navigation(site));
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe("/");
      expect(res.headers.get("Cache-Control")).toBe("no-store");
      expect(res.headers.getSetCookie().filter((c) => c.includes("afx_session"))).toEqual([]);
      expect(await signedIn(jar)).toBe(true);
    },
  );

  // The sidebar's Log Out link (same-origin), a typed or bookmarked URL (none), and a client that
  // sends no fetch metadata: each signs out, without JavaScript (a plain link).
  it.each([["same-origin"], ["none"], [undefined]])("Sec-Fetch-Site %s signs out", async (site) => {
    const { jar } = await signIn(`leaving-${site}@example.com`);
    const res = await get("/api/logout", jar, navigation(site));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
    expect(await signedIn(jar)).toBe(false);
  });
});

describe("GET /admin/leads.csv", () => {
  it("a cross-site navigation gets 403: no file, no audit entry in the admin's name", async () => {
    await insertLeads([{ email: "csv-cross@example.com" }]);
    const { jar } = await signIn("admin@example.com");
    for (const site of ["cross-site", "same-site"]) {
      const res = await get("/admin/leads.csv", jar, navigation(site));
      expect(res.status).toBe(403);
      expect(res.headers.get("Content-Disposition")).toBeNull();
      expect(await res.text()).toBe("Cross-site request refused.");
    }
    expect(await audited()).toBe(0);
    // The dashboard's own link still downloads, audited.
    const own = await get("/admin/leads.csv", jar, navigation("same-origin"));
    expect(own.status).toBe(200);
    expect(await own.text()).toContain("csv-cross@example.com");
    expect(await audited()).toBe(1);
  });
});
