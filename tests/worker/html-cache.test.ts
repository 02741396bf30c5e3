import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

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
  it("serves a repeat visit from the cache, stamped with a fresh nonce everywhere", async () => {
    const first = await get("/portfolio");
    expect(first.cache).toBe("miss");
    const hit = await untilHit("/portfolio");
    expect(hit.res.status).toBe(200);
    expect(hit.nonce).toBeTruthy();
    expect(hit.nonce).not.toBe(first.nonce);
    const nonces = [...hit.body.matchAll(/\snonce="([^"]*)"/g)].map((m) => m[1]);
    expect(nonces.length).toBeGreaterThan(2);
    expect(new Set(nonces)).toEqual(new Set([hit.nonce]));
    // Same page otherwise.
    expect(hit.body.replaceAll(hit.nonce!, "N")).toBe(first.body.replaceAll(first.nonce!, "N"));
    expect(hit.res.headers.get("x-page-cache-control")).toBeNull();
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
    expect(twice.body.replaceAll(twice.nonce!, "N")).toBe(hidden.body.replaceAll(hidden.nonce!, "N"));
  });

  it("does not cache errors, not-found pages or data requests", async () => {
    await get("/no-such-page");
    expect((await get("/no-such-page")).cache).toBe("miss");
    expect((await get("/no-such-page")).res.status).toBe(404);
    const data = await get("/portfolio.data", { Accept: "*/*" });
    expect(data.cache).toBe("bypass");
  });
});
