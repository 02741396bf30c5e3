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

// A subresource of any origin, our own included (a feed's cover image set to /api/logout, an
// `<img>` pointing at the CSV), does nothing: Fetch Metadata names it by its mode or destination.
const SUBRESOURCES: Record<string, string>[] = [
  { "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "image" },
  { "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "script" },
  { "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "style" },
  { "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "iframe" },
  { "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "empty" },
  { "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "image" },
];
// The Log Out link and the Export button (plain links, with or without JavaScript) navigate; our
// own fetch says `empty`; a client with no Fetch Metadata is judged as before.
const ALLOWED: Record<string, string>[] = [
  { "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document" },
  { "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "empty" },
  { "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "empty" },
  { "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "same-origin", "Sec-Fetch-Dest": "empty" },
  {},
];

describe("a subresource's GET does nothing", () => {
  it.each(SUBRESOURCES)("GET /api/logout as %j signs nobody out", async (headers) => {
    const { jar } = await signIn(`img-${headers["Sec-Fetch-Dest"]}-${headers["Sec-Fetch-Mode"]}@example.com`);
    const res = await get("/api/logout", jar, { headers: { Accept: "image/*", ...headers } });
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie().filter((c) => c.includes("afx_session"))).toEqual([]);
    expect(await signedIn(jar)).toBe(true);
  });

  it.each(ALLOWED)("GET /api/logout as %j signs out", async (headers) => {
    const { jar } = await signIn(`nav-${Object.values(headers).join("-") || "none"}@example.com`);
    const res = await get("/api/logout", jar, { headers: { Accept: "text/html", ...headers } });
    expect(res.status).toBe(302);
    expect(await signedIn(jar)).toBe(false);
  });

  it("GET /admin/leads.csv as a subresource gets no file and writes no audit entry; the links still download", async () => {
    await insertLeads([{ email: "csv-img@example.com" }]);
    const { jar } = await signIn("admin@example.com");
    for (const headers of SUBRESOURCES) {
      const res = await get("/admin/leads.csv", jar, { headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.headers.get("Content-Disposition")).toBeNull();
      expect(await res.text()).not.toContain("csv-img@example.com");
    }
    expect(await audited()).toBe(0);
    for (const headers of ALLOWED) {
      const res = await get("/admin/leads.csv", jar, { headers });
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(await res.text()).toContain("csv-img@example.com");
    }
    expect(await audited()).toBe(ALLOWED.length);
  });
});
