import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { toCacheEntry } from "../../worker/html-cache";
import { hashSource } from "../../worker/security-headers";
import { expectDefined } from "../fixtures/expect-defined";

const ORIGIN = "https://afx.test";
const HTML = { Accept: "text/html,application/xhtml+xml" };

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await SELF.fetch(`${ORIGIN}${path}`, { headers: { ...HTML, ...headers }, redirect: "manual" });
  const body = await res.text();
  const cache = res.headers.get("server-timing")?.match(/desc="(\w+)"/)?.[1];
  const nonce = res.headers.get("content-security-policy")?.match(/'nonce-([^']+)'/)?.[1];
  return { res, body, cache, nonce };
}

/** The cache is filled after the response (waitUntil): ask until it answers, a few times. */
async function untilHit(path: string, headers: Record<string, string> = {}) {
  for (let i = 0; i < 20; i++) {
    const r = await get(path, headers);
    if (r.cache === "hit") return r;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${path} never came from the cache`);
}

describe("rendered HTML cache for anonymous visitors", () => {
  it("a stored page keeps no transfer headers", async () => {
    const rendered = new Response("<html></html>", {
      headers: {
        "Content-Type": "text/html",
        "Content-Encoding": "identity",
        "Content-Length": "13",
        "Server-Timing": "x;dur=1",
      },
    });
    const entry = (await toCacheEntry(rendered))!;
    expect(entry.headers.get("content-type")).toBe("text/html");
    for (const name of ["content-encoding", "server-timing"]) expect(entry.headers.has(name), name).toBe(false);
  });

  it("serves a repeat visit from the cache as stored: its CSP lists the hashes of the page's inline scripts", async () => {
    // A URL no earlier test stored (the isolate keeps its most-used pages in memory: decision 120).
    const path = `/portfolio?repeat=${crypto.randomUUID()}`;
    const first = await get(path);
    expect(first.cache).toBe("miss");
    expect(first.nonce).toBeTruthy();
    const hit = await untilHit(path);
    expect(hit.res.status).toBe(200);
    // No nonce anywhere: not in the header, not in the page (the first visitor's is gone).
    expect(hit.nonce).toBeUndefined();
    expect(hit.body).not.toMatch(/\snonce=/);
    // Exactly the scripts the render trusted: every inline script but the JSON-LD data block.
    const csp = hit.res.headers.get("content-security-policy")!;
    const listed = [
      ...expectDefined(csp.match(/script-src ([^;]*)/)?.[1], "script-src").matchAll(/'(sha256-[^']+)'/g),
    ].map((m) => m[1]);
    const inline = [...hit.body.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/g)]
      .filter(([, attrs = ""]) => !attrs.includes("application/ld+json"))
      .map(([, , text = ""]) => text);
    expect(inline.length).toBeGreaterThan(2);
    expect(new Set(listed)).toEqual(new Set(await Promise.all(inline.map(hashSource))));
    // Hashes and 'strict-dynamic' only: no nonce, no host, no 'unsafe-inline'.
    expect(csp).toMatch(/script-src ('sha256-[A-Za-z0-9+/=]{44}' )+'strict-dynamic';/);
    // The stored page's stylesheet is allowed by the same hash as a fresh render's: no nonce needed.
    const stylesheet = hit.body.match(/<style id="stylesheet">([\s\S]*?)<\/style>/)![1];
    expect(csp).toContain(`style-src '${await hashSource(expectDefined(stylesheet))}';`);
    expect(first.res.headers.get("content-security-policy")).toContain(
      `style-src '${await hashSource(expectDefined(stylesheet))}';`,
    );
    // Same page otherwise, and the entry's own bookkeeping headers stay inside.
    expect(hit.body).toBe(first.body.replaceAll(` nonce="${first.nonce}"`, ""));
    expect(hit.res.headers.get("x-page-cache-control")).toBeNull();
    expect(hit.res.headers.get("x-script-hashes")).toBeNull();
  });

  it("stores a page only when every nonce it carries is an inline script's", async () => {
    const page = (html: string) => new Response(html, { headers: { "Content-Type": "text/html" } });
    const entry = await toCacheEntry(
      page('<script nonce="n">alert(1)</script><script type="application/ld+json">{}</script>'),
    );
    expect(entry!.headers.get("x-script-hashes")).toBe("sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI=");
    expect(await entry!.text()).toBe('<script>alert(1)</script><script type="application/ld+json">{}</script>');
    expect(
      await toCacheEntry(page('<link rel="stylesheet" nonce="n" href="/a.css"><script nonce="n">1</script>')),
    ).toBeNull();
    expect(await toCacheEntry(page('<script nonce="n" src="/a.js"></script>'))).toBeNull();
  });

  it("never serves the cache to a visitor with a personal cookie", async () => {
    await untilHit("/investors");
    const withSession = await get("/investors", { Cookie: "afx_session=abc" });
    expect(withSession.cache).toBe("bypass");
  });

  it("keys on the sidebar state the page renders", async () => {
    await untilHit("/funding", { Cookie: "sidebar_state=icon" });
    const other = await get("/funding", { Cookie: "sidebar_state=hidden" });
    expect(other.cache).toBe("miss");
    // Two cookies of that name: the page renders the first, and the key is the first's.
    const hidden = await untilHit("/funding", { Cookie: "sidebar_state=hidden" });
    const twice = await get("/funding", { Cookie: "sidebar_state=hidden; sidebar_state=icon" });
    expect(twice.cache).toBe("hit");
    expect(twice.body).toBe(hidden.body);
  });

  it("does not cache errors, not-found pages or data requests", async () => {
    await get("/no-such-page");
    expect((await get("/no-such-page")).cache).toBe("miss");
    expect((await get("/no-such-page")).res.status).toBe(404);
    // A client navigation's data request (`?_data=<route id>`) is rendered for each visitor.
    const data = await get("/portfolio?_data=routes%2Fportfolio", { Accept: "*/*" });
    expect(data.cache).toBe("bypass");
    expect(data.res.headers.get("Content-Type")).toMatch(/^application\/json/);
  });

  it("answers no single-fetch data URL: `.data` is an unknown page (docs/decisions/058-data-protocol.md)", async () => {
    const res = await get("/portfolio.data", { Accept: "*/*" });
    expect(res.res.status).toBe(404);
    expect(res.res.headers.get("Content-Type")).toMatch(/^text\/html/);
  });
});
