// The blog's edge cache with workerd's real Cache API and a local feed server (an in-isolate
// fetch handler the test controls): fresh, stale-while-refresh, failure serving the last good copy,
// placeholder when nothing is cached; and the fetch limits (3 s, 5 MB).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  FAILURE_MESSAGE,
  FRESH_MS,
  getBlogPosts,
  MAX_STALE_MS,
  RETRY_MS,
  type BlogSource,
} from "~/features/blog/blog-posts.server";
import { FEED_MAX_BYTES, FEED_TIMEOUT_MS, FeedFetchError, fetchFeed } from "~/features/blog/fetch-feed.server";
import { PLACEHOLDER_POST } from "~/features/blog/post";
import atom from "../fixtures/feeds/atom.xml?raw";
import broken from "../fixtures/feeds/broken.xml?raw";
import rssBasic from "../fixtures/feeds/rss-basic.xml?raw";
import { expectDefined } from "../fixtures/expect-defined";

type Handler = (request: Request) => Response | Promise<Response>;

/** A feed server the test scripts: what it answers, and how often it was asked. */
function feedServer(initial: Handler) {
  let handler = initial;
  const server = {
    requests: 0,
    answer(next: Handler) {
      handler = next;
    },
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      server.requests += 1;
      return handler(new Request(input, init));
    }) as typeof fetch,
  };
  return server;
}

const xml = (body: string) => () =>
  new Response(body, { headers: { "Content-Type": "application/rss+xml; charset=utf-8" } });
const status = (code: number) => () => new Response("nope", { status: code });

let feedNumber = 0;
let clock = 0;
let pending: Promise<unknown>[] = [];
let errors: unknown[][] = [];

function source(server: ReturnType<typeof feedServer>): BlogSource {
  return {
    // A feed URL of its own per test: the cache is shared by the whole file.
    feedUrl: `https://feeds.example.com/${++feedNumber}.xml`,
    cache: (caches as unknown as { default: Cache }).default,
    origin: "https://afx.test",
    waitUntil: (promise) => pending.push(promise),
    now: () => clock,
    fetchOptions: { fetch: server.fetch },
  };
}

async function settle() {
  const all = pending;
  pending = [];
  await Promise.all(all);
}

beforeEach(() => {
  clock = Date.UTC(2025, 5, 1);
  pending = [];
  errors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("blog posts cache", () => {
  it("fetches on a miss, then answers from the cache while fresh", async () => {
    const server = feedServer(xml(rssBasic));
    const src = source(server);
    const first = await getBlogPosts(src);
    expect(first.state).toBe("fetched");
    expect(expectDefined(first.posts[0]).id).toBe("issue-1");
    await settle();

    clock += FRESH_MS - 1;
    const second = await getBlogPosts(src);
    expect(second).toEqual({ posts: first.posts, state: "fresh" });
    expect(server.requests).toBe(1);
    expect(errors).toEqual([]);
  });

  it("serves the stale copy at once and refreshes it in the background", async () => {
    const server = feedServer(xml(rssBasic));
    const src = source(server);
    await getBlogPosts(src);
    server.answer(xml(atom));

    clock += FRESH_MS + 1;
    const stale = await getBlogPosts(src);
    expect(stale.state).toBe("stale");
    expect(expectDefined(stale.posts[0]).id).toBe("issue-1");
    // Concurrent requests while the refresh runs do not start another one.
    const during = await getBlogPosts(src);
    expect(expectDefined(during.posts[0]).id).toBe("issue-1");
    await settle();
    expect(server.requests).toBe(2);

    const refreshed = await getBlogPosts(src);
    expect(refreshed.state).toBe("fresh");
    expect(expectDefined(refreshed.posts[0]).id).toBe("tag:atom.example.com,2025:second");
  });

  it("keeps serving the last good copy for 24 h while the feed fails, logging each failure once", async () => {
    const server = feedServer(xml(rssBasic));
    const src = source(server);
    const good = await getBlogPosts(src);
    server.answer(status(500));

    clock += FRESH_MS + 1;
    expect((await getBlogPosts(src)).posts).toEqual(good.posts);
    await settle();
    expect(errors).toHaveLength(1);
    expect(expectDefined(errors[0])[0]).toBe(FAILURE_MESSAGE);

    // Within the retry pause the dead feed is not asked again.
    clock += RETRY_MS - 1;
    expect(await getBlogPosts(src)).toEqual({ posts: good.posts, state: "fresh" });
    expect(server.requests).toBe(2);

    // Broken XML is a failure too: the good copy stays.
    server.answer(xml(broken));
    clock += RETRY_MS;
    expect((await getBlogPosts(src)).posts).toEqual(good.posts);
    await settle();
    expect(server.requests).toBe(3);
    expect(errors).toHaveLength(2);

    // Past 24 h the copy is no longer served.
    clock = Date.UTC(2025, 5, 1) + MAX_STALE_MS;
    expect(await getBlogPosts(src)).toEqual({ posts: [PLACEHOLDER_POST], state: "placeholder" });
  });

  it("shows the placeholder post when nothing is cached and the feed fails, and does not hammer it", async () => {
    const server = feedServer(status(503));
    const src = source(server);
    expect(await getBlogPosts(src)).toEqual({ posts: [PLACEHOLDER_POST], state: "placeholder" });
    expect(errors.map((e) => e[0])).toEqual([FAILURE_MESSAGE]);
    await settle();

    expect(await getBlogPosts(src)).toEqual({ posts: [PLACEHOLDER_POST], state: "placeholder" });
    expect(server.requests).toBe(1);

    // After the pause the feed is asked again and, when it recovers, used.
    server.answer(xml(rssBasic));
    clock += RETRY_MS;
    const recovered = await getBlogPosts(src);
    expect(recovered.state).toBe("fetched");
    expect(recovered.posts).toHaveLength(10);
  });

  it("shows the placeholder for unreachable, non-http and itemless feeds", async () => {
    const unreachable = feedServer(() => {
      throw new TypeError("fetch failed");
    });
    expect((await getBlogPosts(source(unreachable))).posts).toEqual([PLACEHOLDER_POST]);
    const empty = feedServer(xml("<rss><channel><title>x</title></channel></rss>"));
    expect((await getBlogPosts(source(empty))).posts).toEqual([PLACEHOLDER_POST]);
    const server = feedServer(xml(rssBasic));
    expect((await getBlogPosts({ ...source(server), feedUrl: "file:///etc/passwd" })).posts).toEqual([
      PLACEHOLDER_POST,
    ]);
    expect(server.requests).toBe(0);
    expect(errors).toHaveLength(3);
  });

  it("works without a Cache API (vite dev): every request reads the feed", async () => {
    const server = feedServer(xml(rssBasic));
    const src = { ...source(server), cache: null };
    expect((await getBlogPosts(src)).state).toBe("fetched");
    expect((await getBlogPosts(src)).state).toBe("fetched");
    expect(server.requests).toBe(2);
  });
});

describe("feed fetch limits", () => {
  it("are 3 s and 5 MB", () => {
    expect(FEED_TIMEOUT_MS).toBe(3_000);
    expect(FEED_MAX_BYTES).toBe(5 * 1024 * 1024);
  });

  it("abandons a feed that does not answer in time", async () => {
    let aborted = false;
    const server = feedServer(
      (request) =>
        new Promise<Response>((_, reject) => {
          request.signal.addEventListener("abort", () => {
            aborted = true;
            reject(new Error("aborted"));
          });
        }),
    );
    await expect(
      fetchFeed("https://feeds.example.com/slow.xml", { fetch: server.fetch, timeoutMs: 50 }),
    ).rejects.toThrow(/longer than 50 ms/);
    expect(aborted).toBe(true);
  });

  it("abandons a feed whose body trickles past the deadline", async () => {
    const server = feedServer(() => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("<rss>"));
          // …and nothing more, ever.
        },
      });
      return new Response(body);
    });
    await expect(
      fetchFeed("https://feeds.example.com/trickle.xml", { fetch: server.fetch, timeoutMs: 50 }),
    ).rejects.toThrow(FeedFetchError);
  });

  it("abandons a body larger than 5 MB, with or without Content-Length", async () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    let sent = 0;
    const server = feedServer(() => {
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          sent += chunk.byteLength;
          controller.enqueue(chunk);
          if (sent > 2 * FEED_MAX_BYTES) controller.close();
        },
      });
      return new Response(body);
    });
    await expect(fetchFeed("https://feeds.example.com/huge.xml", { fetch: server.fetch })).rejects.toThrow(
      /larger than/,
    );
    // It stopped reading soon after the limit instead of downloading everything.
    expect(sent).toBeLessThan(FEED_MAX_BYTES + 4 * chunk.byteLength);

    const declared = feedServer(
      () => new Response("<rss/>", { headers: { "Content-Length": String(FEED_MAX_BYTES + 1) } }),
    );
    await expect(fetchFeed("https://feeds.example.com/declared.xml", { fetch: declared.fetch })).rejects.toThrow(
      /larger than/,
    );
  });

  it("decodes the charset the feed declares", async () => {
    const latin1 = new Uint8Array([...new TextEncoder().encode("<t>caf"), 0xe9, ...new TextEncoder().encode("</t>")]);
    const server = feedServer(
      () => new Response(latin1, { headers: { "Content-Type": "application/xml; charset=ISO-8859-1" } }),
    );
    await expect(fetchFeed("https://feeds.example.com/latin1.xml", { fetch: server.fetch })).resolves.toBe(
      "<t>caf\u00e9</t>",
    );
  });
});
