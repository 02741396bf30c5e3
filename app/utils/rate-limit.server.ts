/**
 * Per-client signup rate limit (DESIGN.md "Leads"): a fixed-window counter in D1, one atomic
 * upsert per attempt. D1 rather than the Workers Rate Limiting binding because its counts are
 * exact (the binding is per location and eventually consistent), it is testable in workerd and
 * the limit is configuration (`LEADS_RATE_LIMIT`, "attempts/seconds").
 */
export interface RateLimit {
  max: number;
  windowMs: number;
}

export const DEFAULT_SIGNUP_LIMIT: RateLimit = { max: 10, windowMs: 10 * 60_000 };

/** "10/600" → 10 attempts per 600 s; anything unreadable falls back to the default. */
export function parseRateLimit(value: string | undefined): RateLimit {
  const match = value?.trim().match(/^(\d+)\s*\/\s*(\d+)$/);
  if (!match) return DEFAULT_SIGNUP_LIMIT;
  const max = Number(match[1]);
  const seconds = Number(match[2]);
  return max > 0 && seconds > 0 ? { max, windowMs: seconds * 1000 } : DEFAULT_SIGNUP_LIMIT;
}

/** The client's address as Cloudflare reports it, hashed with the secret (never stored raw). */
export async function clientKey(request: Request, secret: string): Promise<string> {
  const address = request.headers.get("CF-Connecting-IP") ?? "unknown";
  const bytes = new TextEncoder().encode(`${secret}\u0000${address}`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest.subarray(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
}

export interface RateLimitOutcome {
  allowed: boolean;
  /** Seconds until the current window ends. */
  retryAfter: number;
}

/**
 * Counts one attempt for `key` and says whether it is within the limit. Old windows are pruned
 * when a key opens a new one (through `waitUntil` when given, so the answer does not wait).
 */
export async function hitRateLimit(
  db: D1Database,
  key: string,
  limit: RateLimit,
  { now = Date.now(), waitUntil }: { now?: number; waitUntil?: (p: Promise<unknown>) => void } = {},
): Promise<RateLimitOutcome> {
  const windowStart = now - (now % limit.windowMs);
  const row = await db
    .prepare(
      `INSERT INTO rate_limits (key, window_start, count) VALUES (?1, ?2, 1)
       ON CONFLICT (key, window_start) DO UPDATE SET count = count + 1
       RETURNING count`,
    )
    .bind(key, windowStart)
    .first<{ count: number }>();
  const count = row?.count ?? 1;
  if (count === 1) {
    const prune = db.prepare("DELETE FROM rate_limits WHERE window_start < ?1").bind(windowStart).run();
    if (waitUntil) waitUntil(prune.catch(() => undefined));
    else await prune;
  }
  return { allowed: count <= limit.max, retryAfter: Math.ceil((windowStart + limit.windowMs - now) / 1000) };
}
