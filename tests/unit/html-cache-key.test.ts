// The HTML cache key is the render's inputs (worker/html-cache.ts): the sidebar state as the page
// reads it, the crawler flag, nothing a request would stream; and no URL can spell another entry.
// What is stored (toCacheEntry, which needs workerd's HTMLRewriter) is tested in tests/worker/html-cache.test.ts.
import { describe, expect, it } from "vitest";
import { htmlCacheKey } from "../../worker/html-cache";
import { ORIGIN } from "../fixtures/origin";

describe("the HTML cache key is the rendered state", () => {
  const key = (headers: Record<string, string>) =>
    htmlCacheKey(new Request(`${ORIGIN}/funding`, { headers: { Accept: "text/html", ...headers } }), "v1")?.url ?? null;

  it("keys on the sidebar state the page renders: the first cookie, as read", () => {
    expect(key({ Cookie: "sidebar_state=hidden; sidebar_state=icon" })).toBe(key({ Cookie: "sidebar_state=hidden" }));
    expect(key({ Cookie: "sidebar_state=hidden; sidebar_state=icon" })).not.toBe(key({ Cookie: "sidebar_state=icon" }));
    // Unknown values render the default state: one entry for all of them.
    expect(key({ Cookie: "sidebar_state=true" })).toBe(key({}));
  });

  it("keys crawlers' complete documents apart, and never caches a request the render would stream to", () => {
    const chrome =
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    expect(key({ "User-Agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" })).not.toBe(
      key({ "User-Agent": chrome }),
    );
    expect(key({ "Sec-Fetch-Mode": "cors" })).toBeNull();
    expect(key({ "Sec-Fetch-Mode": "navigate" })).toBe(key({}));
  });
});

describe("the HTML cache key cannot be forged from the URL", () => {
  const key = (path: string, headers: Record<string, string> = {}) =>
    htmlCacheKey(new Request(`${ORIGIN}${path}`, { headers: { Accept: "text/html", ...headers } }), "v1")?.url ?? null;

  it("a browser's URL that spells the crawler's key parameters gets its own entry", () => {
    const crawler = key("/funding", { "User-Agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" });
    const forgedUrl = new URL(crawler!).search;
    expect(key(`/funding${forgedUrl}`)).not.toBe(crawler);
    // Nor can a URL pick another build's or another sidebar state's entry.
    const plain = key("/funding", { Cookie: "sidebar_state=hidden" });
    expect(key(`/funding${new URL(plain!).search}`)).not.toBe(plain);
    expect(key("/funding?__v=v2")).not.toBe(key("/funding"));
  });
});
