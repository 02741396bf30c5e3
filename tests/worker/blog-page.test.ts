// /blog through the whole worker (server.ts over the production build), with the feed answered by
// a local handler in place of the network.
import { env, SELF } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { pages } from "~/content/pages";
import { FAILURE_MESSAGE } from "~/features/blog/blog-posts.server";
import { PLACEHOLDER_POST } from "~/features/blog/post";
import { PRIVATE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL } from "~/features/blog/page-cache.server";
import hostile from "../fixtures/feeds/hostile.xml?raw";
import rssBasic from "../fixtures/feeds/rss-basic.xml?raw";

let feed: () => Response;
let feedRequests: string[] = [];
let errors: unknown[][] = [];
const realFetch = globalThis.fetch;

beforeEach(() => {
  feed = () => new Response(rssBasic, { headers: { "Content-Type": "application/rss+xml" } });
  feedRequests = [];
  errors = [];
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (request.url !== env.BLOG_FEED_URL) return realFetch(input, init);
    feedRequests.push(request.url);
    return feed();
  });
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// Each test asks under a host of its own: the posts cache is keyed per origin.
let hostNumber = 0;
const blog = (init?: RequestInit) =>
  SELF.fetch(`https://blog${++hostNumber}.afx.test/blog`, { redirect: "manual", ...init });

function cards(html: string): string[] {
  return [...html.matchAll(/<article[\s\S]*?<\/article>/g)].map((m) => m[0]);
}

describe("/blog", () => {
  it("renders the feed's 10 newest posts as cards, in the HTML", async () => {
    const res = await blog();
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(new RegExp(`<h1[^>]*>${pages.blog.heading}</h1>`));
    const found = cards(html);
    expect(found).toHaveLength(10);
    expect(found[0]).toContain("Fintech &amp; Food: what we learned");
    expect(found[0]).toContain('src="https://cdn.example.com/covers/one.jpg"');
    expect(found[0]).toContain("3<!-- --> min read");
    expect(found[0]).toContain('<time dateTime="2025-03-14T09:30:00.000Z">March 14, 2025</time>');
    expect(found[0]).toMatch(
      /<a href="https:\/\/newsletter.example.com\/p\/issue-1" target="_blank" rel="noopener"[^>]*>Read More/,
    );
    expect(found[1]).toContain("Caf\u00e9 culture &amp; &quot;impact&quot;");
    expect(feedRequests).toHaveLength(1);
  });

  it("never renders feed HTML: scripts and javascript: links end up as text or nowhere", async () => {
    feed = () => new Response(hostile);
    const html = await (await blog()).text();
    const found = cards(html).join("");
    expect(found).toContain("Click me");
    expect(found).not.toMatch(/<script|javascript:|onerror|onclick|<iframe|alert\(/i);
  });

  it("shows the single placeholder post when the feed fails, logging the failure once", async () => {
    feed = () => new Response("down", { status: 502 });
    const res = await blog();
    expect(res.status).toBe(200);
    const html = await res.text();
    const found = cards(html);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(PLACEHOLDER_POST.title);
    expect(html).not.toContain("Failed to load blog posts");
    expect(errors.filter((e) => e[0] === FAILURE_MESSAGE)).toHaveLength(1);
  });

  it("answers the next visitor from the cache", async () => {
    const host = `https://cached${++hostNumber}.afx.test/blog`;
    await (await SELF.fetch(host)).text();
    const second = await (await SELF.fetch(host)).text();
    expect(cards(second)).toHaveLength(10);
    expect(feedRequests).toHaveLength(1);
  });

  it("lets a shared cache keep the page briefly for anonymous visitors only", async () => {
    const anonymous = await blog();
    await anonymous.text();
    expect(anonymous.headers.get("Cache-Control")).toBe(PUBLIC_CACHE_CONTROL);
    expect(anonymous.headers.get("Cache-Control")).toMatch(/^public, .*s-maxage=\d+/);
    expect(anonymous.headers.get("Vary")).toMatch(/Cookie/i);

    const withCookie = await blog({ headers: { Cookie: "session=abc" } });
    await withCookie.text();
    expect(withCookie.headers.get("Cache-Control")).toBe(PRIVATE_CACHE_CONTROL);
  });

  it("streams the posts to a client-side navigation", async () => {
    const res = await SELF.fetch(`https://nav${++hostNumber}.afx.test/blog?_data=routes%2Fblog`, {
      headers: { "Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "empty" },
    });
    expect(res.status).toBe(200);
    // Remix's deferred data: the shell's keys first, the posts when the feed answers.
    expect(res.headers.get("Content-Type")).toMatch(/^text\/remix-deferred/);
    const body = await res.text();
    expect(body).toContain("Fintech & Food: what we learned");
  });
});
