// Remix's route-discovery endpoint, /__manifest (docs/decisions/058-data-protocol.md): what our
// pages ask for is answered; a request no page sends, built to make Remix's matching costly
// (GHSA-chx6-hx7r-mcp5), is refused before Remix matches anything.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MAX_DISCOVERY_DEPTH, MAX_DISCOVERY_PREFIXES } from "../../worker/manifest-request";

const ORIGIN = "https://afx.test";

/** The build's version, as the page's manifest script names it (the client sends it along). */
async function pageLinks(path: string): Promise<{ version: string; paths: string[] }> {
  const html = await (await SELF.fetch(`${ORIGIN}${path}`, { headers: { Accept: "text/html" } })).text();
  const version = html.match(/manifest-([0-9a-f]+)\.js/)?.[1] ?? html.match(/"version":"([0-9a-f]+)"/)?.[1];
  expect(version).toBeTruthy();
  const paths = [...new Set([...html.matchAll(/href="(\/[^"#?]*)/g)].map((m) => m[1]!))].filter(
    (p) => !p.startsWith("/assets/"),
  );
  return { version: version!, paths };
}

const discover = (version: string, paths: string[]) =>
  SELF.fetch(`${ORIGIN}/__manifest?${new URLSearchParams([...paths.map((p) => ["p", p]), ["version", version]])}`);

describe("/__manifest", () => {
  it("answers the discovery of every link of the most linked page", async () => {
    const { version, paths } = await pageLinks("/sitemap");
    expect(paths.length).toBeGreaterThan(20);
    const res = await discover(version, paths);
    expect(res.status).toBe(200);
    const patches = (await res.json()) as Record<string, { path?: string }>;
    expect(Object.values(patches).map((r) => r.path)).toContain("portfolio");
  });

  it("refuses a path deeper than any route, which Remix would match prefix by prefix", async () => {
    const { version } = await pageLinks("/");
    // ~3,700 segments fit Remix's own URL limit; each prefix is matched: seconds of CPU before.
    const res = await discover(version, ["/a".repeat(3_700)]);
    expect(res.status).toBe(400);
    expect((await discover(version, ["/a".repeat(MAX_DISCOVERY_DEPTH + 1)])).status).toBe(400);
    expect((await discover(version, ["/a".repeat(MAX_DISCOVERY_DEPTH)])).status).toBe(200);
  });

  it("refuses more paths than any page links to", async () => {
    const { version } = await pageLinks("/");
    const many = Array.from({ length: MAX_DISCOVERY_PREFIXES + 1 }, (_, i) => `/p${i}`);
    expect((await discover(version, many)).status).toBe(400);
    expect((await discover(version, many.slice(0, MAX_DISCOVERY_PREFIXES))).status).toBe(200);
  });
});
