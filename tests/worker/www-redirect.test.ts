// www.<site> is a Custom Domain of its own (wrangler.toml [env.production] routes) and answers
// with a permanent redirect to the same path on SITE_URL's origin.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { wwwRedirect } from "../../worker/www-redirect";

describe("www redirects to the apex", () => {
  it("keeps the path and query, and the method (308)", async () => {
    for (const method of ["GET", "POST"]) {
      const res = await SELF.fetch("https://www.afx.test/portfolio/some-venture?subject=x", {
        method,
        redirect: "manual",
      });
      expect(res.status).toBe(308);
      expect(res.headers.get("Location")).toBe("https://afx.test/portfolio/some-venture?subject=x");
      // Through the worker's one exit: the security headers are on it.
      expect(res.headers.get("Strict-Transport-Security")).toMatch(/includeSubDomains/);
    }
  });

  it("touches no other host", async () => {
    const res = await SELF.fetch("https://afx.test/robots.txt", { redirect: "manual" });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const site = { SITE_URL: "https://afx.test" };
    expect(wwwRedirect(new Request("https://www.other.test/"), site)).toBeNull();
    expect(wwwRedirect(new Request("https://www.www.afx.test/"), site)).toBeNull();
    expect(wwwRedirect(new Request("https://www.afx.test/"), { SITE_URL: "not a url" })).toBeNull();
  });
});
