import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ORIGIN } from "./leads-helpers";

// Lead data is personal data (DESIGN.md "Authorization"): nothing of it without an admin session.
describe("admin-only lead endpoints", () => {
  it.each(["/api/leads", "/api/leads/stats", "/admin/leads.csv"])("%s answers 401 { message } to an anonymous visitor", async (path) => {
    await env.DB.prepare("INSERT OR IGNORE INTO leads (email, first_name, source) VALUES ('secret@example.com', 'S', 'footer')").run();
    const res = await SELF.fetch(`${ORIGIN}${path}`);
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.text();
    expect(JSON.parse(body)).toEqual({ message: expect.any(String) });
    expect(body).not.toContain("secret@example.com");
  });

  it("/admin/leads is the not-found page with 404 for an anonymous visitor", async () => {
    const res = await SELF.fetch(`${ORIGIN}/admin/leads`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("Page Not Found");
  });
});
