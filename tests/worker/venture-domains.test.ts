// Venture websites (seeded once from VENTURE_DOMAINS, then the catalogue's: docs/ventures.md):
// where one is not set, no page links to a guessed host, the CSP frames none, and the worker
// requests nothing.
import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import worker from "../../worker/server";
import { STARTING_VENTURES } from "~/content/ventures";
import { TEST_DOMAINS, WITHOUT_DOMAIN } from "../fixtures/venture-domains";
import { expectDefined } from "../fixtures/expect-defined";

const ORIGIN = "https://afx.test";
type Incoming = Parameters<typeof worker.fetch>[0];

afterEach(() => vi.restoreAllMocks());

/** One request through the worker with some configuration changed (no Accept: no HTML cache). */
async function fetchWith(path: string, vars: Partial<Env>) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(`${ORIGIN}${path}`) as Incoming, { ...env, ...vars } as Env, ctx);
  const html = await res.text();
  await waitOnExecutionContext(ctx);
  return { res, html };
}

const frameSrc = (res: Response) =>
  (res.headers.get("Content-Security-Policy") ?? "")
    .split("; ")
    .find((d) => d.startsWith("frame-src "))!
    .split(" ")
    .slice(1);

describe("VENTURE_DOMAINS", () => {
  it("the CSP of every response frames the configured sites only", async () => {
    const res = await SELF.fetch(`${ORIGIN}/robots.txt`);
    const sources = frameSrc(res);
    expect(sources[0]).toBe("https://www.youtube-nocookie.com");
    for (const domain of Object.values(TEST_DOMAINS)) expect(sources).toContain(`https://${domain}`);
    expect(sources.join(" ")).not.toContain(WITHOUT_DOMAIN);
    expect(sources).toHaveLength(1 + 2 * Object.keys(TEST_DOMAINS).length);
  });

  it("a venture without a domain: its description and a visit panel, no frame, no link out, no url in its JSON-LD", async () => {
    const res = await SELF.fetch(`${ORIGIN}/subsidiary/${WITHOUT_DOMAIN}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const s = STARTING_VENTURES.find((v) => v.id === WITHOUT_DOMAIN)!;
    expect(html).toContain(s.description.replace(/'/g, "&#x27;"));
    expect(html).toMatch(/<h2[^>]*>Website Coming Soon<\/h2>/);
    expect(html).toContain(`href="/documents?subsidiary=${WITHOUT_DOMAIN}"`);
    expect(html).not.toContain("Open in New Tab");
    expect(html).not.toContain("<noscript><p");
    expect(html).not.toMatch(/target="_blank"[^>]*>[^<]*(Open in New Tab|Visit )/);
    const ld = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) =>
      JSON.parse(expectDefined(m[1])),
    );
    const org = ld.find((j) => j["@type"] === "Organization");
    expect(org).toMatchObject({ name: s.name });
    expect(org).not.toHaveProperty("url");
  });

  it("unset (the shipped default): no venture link on the pages, a CSP with only the video player, no request to any site", async () => {
    const outbound = vi.spyOn(globalThis, "fetch");
    const unset = { VENTURE_DOMAINS: "", EMBED_CHECK: "on" };
    // The catalogue is the source now: no website in it (a change, so the content's generation moves).
    const { results: kept } = await env.DB.prepare("SELECT id, website FROM ventures").all<{
      id: string;
      website: string | null;
    }>();
    await env.DB.batch([
      env.DB.prepare("UPDATE ventures SET website = NULL"),
      env.DB.prepare("UPDATE content_generation SET value = value + 1"),
    ]);
    onTestFinished(async () => {
      await env.DB.batch([
        ...kept.map((v) => env.DB.prepare("UPDATE ventures SET website = ? WHERE id = ?").bind(v.website, v.id)),
        env.DB.prepare("UPDATE content_generation SET value = value + 1"),
      ]);
    });
    // A change made by SQL outside the worker: seen once the isolate's copy of the content's
    // generation is refreshed in the background (docs/decisions/120-cache-hit-without-d1.md).
    await expect
      .poll(async () => frameSrc((await fetchWith("/portfolio", unset)).res), { timeout: 12_000, interval: 500 })
      .toEqual(["https://www.youtube-nocookie.com"]);
    for (const path of ["/", "/portfolio", "/sitemap"]) {
      const { res, html } = await fetchWith(path, unset);
      expect(res.status).toBe(200);
      expect(frameSrc(res)).toEqual(["https://www.youtube-nocookie.com"]);
      expect(html).not.toContain('.example"');
      expect(html).not.toContain('(opens in a new tab)"');
    }
    const home = await fetchWith("/", unset);
    const org = [...home.html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)]
      .map((m) => JSON.parse(expectDefined(m[1])))
      .find((j) => j["@type"] === "Organization");
    expect(org.subOrganization).toHaveLength(9);
    for (const sub of org.subOrganization) expect(sub).not.toHaveProperty("url");
    for (const s of STARTING_VENTURES) {
      const { res, html } = await fetchWith(`/subsidiary/${s.id}`, unset);
      expect(res.status).toBe(200);
      expect(html).toContain("Website Coming Soon");
    }
    expect(outbound).not.toHaveBeenCalled();
  });

  it("set, with EMBED_CHECK on: the detail page asks that site, and only it", async () => {
    const asked: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
      asked.push(input instanceof Request ? input.url : String(input));
      return new Response("ok", { headers: { "X-Frame-Options": "DENY" } });
    });
    const { res } = await fetchWith("/subsidiary/gaas", { EMBED_CHECK: "on" });
    expect(res.status).toBe(200);
    expect(asked).toEqual(["https://gaas.example"]);
  });
});
