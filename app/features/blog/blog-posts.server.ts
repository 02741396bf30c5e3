// The blog's posts, kept at the edge with the Cache API: fresh for 10 minutes, then served stale
// while one background refresh runs, and the last good copy kept for 24 h while the feed fails.
import { FeedFetchError, fetchFeed, type FetchFeedOptions } from "./fetch-feed.server";
import { parseFeed } from "./parse-feed.server";
import { PLACEHOLDER_POST, type BlogPost } from "./post";
import { log } from "~/utils/log.server";

export const FRESH_MS = 10 * 60 * 1000;
export const MAX_STALE_MS = 24 * 60 * 60 * 1000;
/** After a failed fetch the feed is not asked again for this long (no stampede on a dead feed). */
export const RETRY_MS = 60 * 1000;

export const FAILURE_MESSAGE = "Failed to fetch blog posts";

/** What the cache holds for one feed URL. */
type Entry = {
  /** The last good posts, or null when the feed has never been read. */
  posts: BlogPost[] | null;
  /** When `posts` were fetched (ms since the epoch). */
  fetchedAt: number;
  /** Until then the entry answers without asking the feed. */
  nextCheckAt: number;
};

type BlogPostsResult = {
  posts: BlogPost[];
  /** fresh: cached; stale: cached, refresh started; fetched: read now; placeholder: nothing usable. */
  state: "fresh" | "stale" | "fetched" | "placeholder";
};

export type BlogSource = {
  feedUrl: string;
  /** `caches.default` in the worker; null where there is no Cache API. */
  cache: Pick<Cache, "match" | "put"> | null;
  /** Origin the cache key lives under (the request's): the Cache API keys on this zone's URLs. */
  origin: string;
  waitUntil: (promise: Promise<unknown>) => void;
  now?: () => number;
  fetchOptions?: FetchFeedOptions;
};

function cacheKey({ origin, feedUrl }: BlogSource): Request {
  return new Request(`${origin}/__cache/blog-posts?feed=${encodeURIComponent(feedUrl)}`);
}

async function readEntry(source: BlogSource): Promise<Entry | null> {
  try {
    const hit = await source.cache?.match(cacheKey(source));
    return hit ? ((await hit.json()) as Entry) : null;
  } catch {
    return null; // an unreadable entry is a miss
  }
}

async function writeEntry(source: BlogSource, entry: Entry): Promise<void> {
  if (!source.cache) return;
  const body = JSON.stringify(entry);
  const response = new Response(body, {
    headers: {
      "Content-Type": "application/json",
      // The cache may drop it after 24 h; freshness is decided from the entry itself.
      "Cache-Control": `public, max-age=${MAX_STALE_MS / 1000}`,
    },
  });
  await source.cache.put(cacheKey(source), response).catch(() => {});
}

/**
 * Fetches and parses the feed and stores the outcome. Resolves to the new posts, or null after
 * logging the failure once (the previous good posts, if any, stay in the cache).
 */
async function refresh(source: BlogSource, previous: Entry | null): Promise<BlogPost[] | null> {
  const now = source.now ?? Date.now;
  try {
    const xml = await fetchFeed(source.feedUrl, source.fetchOptions);
    const posts = parseFeed(xml, { feedUrl: source.feedUrl });
    if (posts.length === 0) throw new Error("the feed has no items");
    const at = now();
    await writeEntry(source, { posts, fetchedAt: at, nextCheckAt: at + FRESH_MS });
    return posts;
  } catch (error) {
    // An unreachable or failing feed is the outside world, not our bug: its reason, no stack.
    const cause =
      error instanceof FeedFetchError
        ? { reason: error.message }
        : { error: error instanceof Error ? error : String(error) };
    log("error", FAILURE_MESSAGE, { feedUrl: source.feedUrl, ...cause });
    await writeEntry(source, {
      posts: previous?.posts ?? null,
      fetchedAt: previous?.fetchedAt ?? 0,
      nextCheckAt: now() + RETRY_MS,
    });
    return null;
  }
}

/** The posts to show: never throws; the placeholder post when there is nothing usable. */
export async function getBlogPosts(source: BlogSource): Promise<BlogPostsResult> {
  const now = (source.now ?? Date.now)();
  const entry = await readEntry(source);
  const usable = entry?.posts && now - entry.fetchedAt < MAX_STALE_MS ? entry.posts : null;
  if (entry && now < entry.nextCheckAt) {
    return usable ? { posts: usable, state: "fresh" } : { posts: [PLACEHOLDER_POST], state: "placeholder" };
  }
  if (usable) {
    // A lease: requests arriving while this refresh runs keep serving the copy without starting
    // their own. (A promise shared across requests would tie one request's I/O to another's.)
    await writeEntry(source, { ...entry!, nextCheckAt: now + RETRY_MS });
    source.waitUntil(refresh(source, entry));
    return { posts: usable, state: "stale" };
  }
  const posts = await refresh(source, null);
  return posts ? { posts, state: "fetched" } : { posts: [PLACEHOLDER_POST], state: "placeholder" };
}
