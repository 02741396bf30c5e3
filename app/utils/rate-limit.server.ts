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

/** One attempt of one client in the current window of `limit`. */
export interface Attempt {
  key: string;
  windowStart: number;
  max: number;
  retryAfter: number;
}

export function attemptFor(key: string, limit: RateLimit, now = Date.now()): Attempt {
  const windowStart = now - (now % limit.windowMs);
  return { key, windowStart, max: limit.max, retryAfter: Math.ceil((windowStart + limit.windowMs - now) / 1000) };
}

/** Counts the attempt; the statement returns the window's count including it. */
export function countAttempt(db: D1Database, a: Attempt): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO rate_limits (key, window_start, count) VALUES (?1, ?2, 1)
       ON CONFLICT (key, window_start) DO UPDATE SET count = count + 1
       RETURNING count`,
    )
    .bind(a.key, a.windowStart);
}

/**
 * SQL condition, true while the attempt's window is within the limit: lets a write in the same
 * batch as countAttempt happen only then (one D1 round trip for a signup). Binds ?key, ?window, ?max
 * at the given positions.
 */
export const withinLimitSql = (key: number, window: number, max: number) =>
  `(SELECT count FROM rate_limits WHERE key = ?${key} AND window_start = ?${window}) <= ?${max}`;

/**
 * After counting: prunes old windows when this key opened a new one (through `waitUntil` when
 * given, so the answer does not wait), and says whether the attempt is allowed.
 */
export async function settleAttempt(
  db: D1Database,
  a: Attempt,
  count: number,
  waitUntil?: (p: Promise<unknown>) => void,
): Promise<RateLimitOutcome> {
  if (count === 1) {
    const prune = db.prepare("DELETE FROM rate_limits WHERE window_start < ?1").bind(a.windowStart).run();
    if (waitUntil) waitUntil(prune.catch(() => undefined));
    else await prune;
  }
  return { allowed: count <= a.max, retryAfter: a.retryAfter };
}

/** Counts one attempt on its own (requests that will write nothing) and says whether it is allowed. */
export async function hitRateLimit(db: D1Database, a: Attempt, waitUntil?: (p: Promise<unknown>) => void) {
  const row = await countAttempt(db, a).first<{ count: number }>();
  return settleAttempt(db, a, row?.count ?? 1, waitUntil);
}
