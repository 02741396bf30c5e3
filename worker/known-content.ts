/**
 * The content's generation as this isolate knows it (docs/decisions/120-cache-hit-without-d1.md):
 * read from D1 at the isolate's first request, then kept, and read again in the background
 * (`ctx.waitUntil`, after the response) by the first request more than REFRESH_AFTER_MS after the
 * last read. A cached hit therefore makes no D1 call. A request of this isolate that wrote forgets
 * it, so the writer's next request reads the change's generation before it looks in the cache.
 *
 * What bounds a page's age is not this copy but the cache entry's own freshness (60 s): an entry
 * is served fresh only within 60 s of its render, so a page rendered before a change is never
 * served later than 60 s after it, whatever generation an isolate holds. The generation makes a
 * change visible sooner: within REFRESH_AFTER_MS (plus one request) in every isolate.
 *
 * The last generation read is also kept in the Cache API beside the pages, for an isolate that
 * starts while D1 is down: it can still find the stored pages (served only then, stale-if-error).
 */
import { readContentGeneration } from "../app/features/content/generation.server";
import { ventureFrameOrigins } from "../app/features/ventures/catalogue.server";
import type { Db } from "../app/utils/db.server";
import { log } from "../app/utils/log.server";

/** How old this isolate's copy may grow before a request refreshes it in the background. */
export const REFRESH_AFTER_MS = 5_000;

export interface KnownContent {
  /** The cache key's segment (features/content/generation.server.ts). */
  generation: string;
  /** The origins a page may frame (the shown ventures' websites), read for this generation. */
  frameOrigins: readonly string[];
  /** When it was read (or taken from the Cache API while D1 was down). */
  readAt: number;
}

let known: KnownContent | undefined;
let refreshing: Promise<unknown> | undefined;

async function read(db: Db, previous: KnownContent | undefined): Promise<KnownContent> {
  const readAt = Date.now();
  const generation = await readContentGeneration(db);
  // The ventures' websites change only with the generation (a venture's change bumps it).
  const frameOrigins =
    previous && previous.generation === generation ? previous.frameOrigins : await ventureFrameOrigins(db);
  return { generation, frameOrigins, readAt };
}

const lastKnownUrl = (origin: string) => `${origin}/__html-generation`;

function remember(cache: Cache | null, origin: string, content: KnownContent) {
  if (!cache) return Promise.resolve();
  const body = JSON.stringify({ generation: content.generation, frameOrigins: content.frameOrigins });
  // Kept as long as the pages it finds (worker/html-cache.ts STALE_IF_ERROR_S and their 60 s).
  return cache.put(
    lastKnownUrl(origin),
    new Response(body, { headers: { "Content-Type": "application/json", "Cache-Control": "public, max-age=86460" } }),
  );
}

/**
 * The content as this isolate knows it, reading D1 only when it knows none (the isolate's first
 * request, or one after a write); a refresh in the background when the copy is old. Rejects only
 * when it had to read and D1 failed.
 */
export async function knownContent(
  db: Db,
  ctx: Pick<ExecutionContext, "waitUntil">,
  cache: Cache | null,
  origin: string,
): Promise<KnownContent> {
  const now = Date.now();
  if (!known) {
    const fresh = await read(db, undefined);
    known = fresh;
    ctx.waitUntil(remember(cache, origin, fresh).catch(() => {}));
    return fresh;
  }
  if (now - known.readAt > REFRESH_AFTER_MS && !refreshing) {
    const previous = known;
    refreshing = read(db, previous)
      .then(async (fresh) => {
        known = fresh;
        if (fresh.generation !== previous.generation) await remember(cache, origin, fresh);
      })
      // D1 down: the copy stays as it is, and the next request tries again.
      .catch((error: unknown) => log("warn", "[cache] content generation not refreshed", { error }))
      .finally(() => (refreshing = undefined));
    ctx.waitUntil(refreshing);
  }
  return known;
}

/**
 * The last generation any isolate read, from the Cache API, for a request that could not read D1:
 * kept as this isolate's copy, refreshed like one (in the background, REFRESH_AFTER_MS on).
 */
export async function lastKnownContent(cache: Cache | null, origin: string): Promise<KnownContent | null> {
  const entry = await cache?.match(lastKnownUrl(origin));
  if (!entry) return null;
  const { generation, frameOrigins } = await entry.json<{ generation: string; frameOrigins: string[] }>();
  return (known = { generation, frameOrigins, readAt: Date.now() });
}

/** This isolate wrote: its next request reads the generation again before looking in the cache. */
export function forgetKnownContent() {
  known = undefined;
}
