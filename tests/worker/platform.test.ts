import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ADMIN_PAGES, pages } from "~/content/pages";
import { STARTING_VENTURES } from "~/content/ventures";
import { hashSource, STATIC_SECURITY_HEADERS } from "../../worker/security-headers";
import headersFile from "../../public/_headers?raw";
import { expectDefined } from "../fixtures/expect-defined";

const ORIGIN = "https://afx.test";
const get = (path: string, init?: RequestInit) => SELF.fetch(`${ORIGIN}${path}`, { redirect: "manual", ...init });

function h1(html: string) {
  return html
    .match(/<h1[^>]*>([\s\S]*?)<\/h1>/)?.[1]
    ?.replace(/<[^>]+>/g, "")
    .trim();
}

const publicPages = Object.values(pages).filter((p) => !ADMIN_PAGES.includes(p));

describe("route table", () => {
  it.each(publicPages.map((p) => [p.path, p.heading] as const))(
    "%s answers 200 with its heading",
    async (path, heading) => {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(h1(await res.text())).toBe(heading);
    },
  );

  it("/home is home too", async () => {
    const res = await get("/home");
    expect(res.status).toBe(200);
    expect(h1(await res.text())).toBe(pages.home.heading);
  });

  it.each(STARTING_VENTURES.map((s) => [s.id, s.name]))("/subsidiary/%s shows %s", async (id, name) => {
    const res = await get(`/subsidiary/${id}`);
    expect(res.status).toBe(200);
    expect(h1(await res.text())).toBe(name);
  });

  it("an unknown subsidiary is 'Subsidiary Not Found' with 404", async () => {
    const res = await get("/subsidiary/does-not-exist");
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(h1(html)).toBe("Subsidiary Not Found");
    expect(html).toContain("The subsidiary you&#x27;re looking for doesn&#x27;t exist.");
  });

  it.each([
    ["fiscalme", "fiscal-me"],
    ["get-gaas", "gaas"],
    ["snews-press", "snews"],
  ])("/subsidiary/%s redirects 301 to %s", async (alias, id) => {
    const res = await get(`/subsidiary/${alias}`);
    expect(res.status).toBe(301);
    expect(new URL(res.headers.get("location")!, ORIGIN).pathname).toBe(`/subsidiary/${id}`);
  });

  it.each(["/documents/anything", "/documents/a/b/c.pdf"])("%s redirects 302 to /documents", async (path) => {
    const res = await get(path);
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("location")!, ORIGIN).pathname).toBe("/documents");
  });

  it("/admin/leads is the not-found page for an anonymous visitor", async () => {
    const res = await get("/admin/leads");
    expect(res.status).toBe(404);
    expect(h1(await res.text())).toBe("Page Not Found");
  });

  it("an unknown path is the not-found page with 404 and shows the attempted path", async () => {
    const res = await get("/no/such/page");
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(h1(html)).toBe("Page Not Found");
    expect(html).toContain("The page you&#x27;re looking for doesn&#x27;t exist or has been moved.");
    expect(html).toContain("/no/such/page");
    for (const p of [pages.portfolio, pages.funding, pages.investors, pages.consultancy, pages.documents, pages.blog]) {
      expect(html).toContain(`href="${p.path}"`);
    }
  });
});

describe("document", () => {
  it("has the default metadata, the skip link, dark theme and a canonical URL from SITE_URL", async () => {
    const html = await (await get("/")).text();
    expect(html).toMatch(/<html lang="en" class="dark"/);
    expect(html).toContain(`<title>${pages.home.title}</title>`);
    expect(html).toContain('href="#main-content"');
    expect(html).toContain('id="main-content"');
    expect(html).toContain(`<link rel="canonical" href="${env.SITE_URL}/"/>`);
    expect(html).toMatch(/<meta property="og:title" content="[^"]+"/);
    expect(html).toMatch(/<meta name="twitter:card" content="summary"/);
  });

  it("applies the theme before first paint with a nonce'd inline script", async () => {
    const res = await get("/");
    const nonce = res.headers.get("content-security-policy")!.match(/'nonce-([^']+)'/)![1];
    const html = await res.text();
    const scripts = [...html.matchAll(/<script(?![^>]*type="application\/ld\+json")([^>]*)>/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(1);
    for (const attrs of scripts) expect(attrs).toContain(`nonce="${nonce}"`);
    expect(html.indexOf('localStorage.getItem("theme")')).toBeLessThan(html.indexOf("</head>"));
  });

  it("/robots.txt and /sitemap.xml list the site", async () => {
    const robots = await (await get("/robots.txt")).text();
    expect(robots).toContain(`Sitemap: ${env.SITE_URL}/sitemap.xml`);
    const sitemap = await (await get("/sitemap.xml")).text();
    expect(sitemap).toContain(`<loc>${env.SITE_URL}/portfolio</loc>`);
    for (const s of STARTING_VENTURES) expect(sitemap).toContain(`<loc>${env.SITE_URL}/subsidiary/${s.id}</loc>`);
    expect(sitemap).not.toContain("/admin/leads");
  });
});

describe("security headers", () => {
  it.each(["/", "/nope", "/documents/x", "/robots.txt", "/subsidiary/get-gaas"])(
    "%s carries every header",
    async (path) => {
      const res = await get(path);
      const csp = res.headers.get("content-security-policy")!;
      expect(csp).toMatch(/script-src 'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'/);
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) {
        expect(csp).toContain(directive);
      }
      for (const [name, value] of Object.entries(STATIC_SECURITY_HEADERS)) {
        expect(res.headers.get(name)).toBe(value);
      }
    },
  );

  // Every page the sitemap lists, the 404 page and a venture's detail page (its header tile).
  const documents = [
    ...publicPages.map((p) => p.path),
    ...STARTING_VENTURES.map((s) => `/subsidiary/${s.id}`),
    "/nope",
  ];
  it.each(documents)(
    "%s: default-src 'none', nothing unsafe, its one <style> allowed by hash, no style attribute",
    async (path) => {
      const res = await get(path, { headers: { Accept: "text/html" } });
      const html = await res.text();
      const csp = res.headers.get("content-security-policy")!;
      expect(csp.split("; ")[0]).toBe("default-src 'none'");
      expect(csp).not.toContain("'unsafe-");
      // The inlined stylesheet is the page's only style, and the CSP names exactly its hash.
      const styles = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]);
      expect(styles).toHaveLength(1);
      expect(csp).toContain(`; style-src '${await hashSource(expectDefined(styles[0]))}';`);
      // No style attribute in the markup (the CSP would refuse it): colours and delays are classes.
      expect(html).not.toMatch(/<[a-zA-Z][^<>]*\sstyle=/);
    },
  );

  it("a response that renders no page (a cross-site refusal) allows no script at all", async () => {
    const res = await get("/help", {
      method: "POST",
      headers: { Origin: "https://evil.example" },
      body: new URLSearchParams({ x: "1" }),
    });
    expect(res.status).toBe(403);
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("script-src 'none'");
    expect(csp).not.toContain("nonce-");
    for (const [name, value] of Object.entries(STATIC_SECURITY_HEADERS)) expect(res.headers.get(name)).toBe(value);
  });

  it("uses a fresh nonce for every response", async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const csp = (await get("/")).headers.get("content-security-policy")!;
      nonces.add(expectDefined(csp.match(/'nonce-([^']+)'/)![1]));
    }
    expect(nonces.size).toBe(5);
  });

  it("upgrades insecure requests only over https", async () => {
    expect((await get("/")).headers.get("content-security-policy")).toContain("upgrade-insecure-requests");
    const plain = await SELF.fetch("http://localhost/", { redirect: "manual" });
    expect(plain.headers.get("content-security-policy")).not.toContain("upgrade-insecure-requests");
  });

  it("public/_headers gives static assets the same headers", () => {
    const rules = headersFile.split("\n").map((l) => l.trim());
    for (const [name, value] of Object.entries(STATIC_SECURITY_HEADERS)) {
      expect(rules).toContain(`${name}: ${value}`);
    }
    expect(headersFile).toMatch(/Content-Security-Policy: [^\n]*frame-ancestors 'none'/);
  });
});

describe("D1", () => {
  it("has the migrated schema with the unique normalised e-mail index, one lead per address and topic", async () => {
    const { results } = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'leads'",
    ).all<{ name: string }>();
    expect(results.map((r) => r.name)).toEqual(
      expect.arrayContaining([
        "leads_email_topic_unique",
        "leads_subscribed_at_idx",
        "leads_source_status_subscribed_at_idx",
      ]),
    );
    await env.DB.prepare("INSERT INTO leads (email, first_name, source) VALUES ('a@example.com', 'A', 'footer')").run();
    await expect(
      env.DB.prepare("INSERT INTO leads (email, first_name, source) VALUES ('a@example.com', 'B', 'blog')").run(),
    ).rejects.toThrow(/UNIQUE/);
    // The same address on the investor alerts is a lead of its own.
    await env.DB.prepare(
      "INSERT INTO leads (email, first_name, source, topic) VALUES ('a@example.com', 'A', 'alerts-news', 'alerts')",
    ).run();
  });
});

describe("Permissions-Policy", () => {
  it("Permissions-Policy drops the obsolete interest-cohort, in the worker and in public/_headers", async () => {
    expect(STATIC_SECURITY_HEADERS["Permissions-Policy"]).not.toContain("interest-cohort");
    expect(headersFile).not.toContain("interest-cohort");
    const res = await SELF.fetch(`${ORIGIN}/robots.txt`);
    await res.arrayBuffer();
    expect(res.headers.get("permissions-policy")).not.toContain("interest-cohort");
  });
});
