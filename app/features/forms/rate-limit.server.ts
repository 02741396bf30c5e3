/**
 * The one rate limiter of the site's forms (docs/decisions/005-newsletter-and-leads.md): a
 * fixed-window counter in D1, one atomic upsert per attempt, per form ("scope") and per client
 * network, under a global ceiling per form that only attempts within their client's limit reach
 * (docs/decisions/013-security-hardening.md). Callers make their cheap checks (method, origin,
 * content type, size, syntax) first: the limiter writes, they do not. D1 rather than the Workers Rate Limiting binding
 * because its counts are exact (the binding is per location and eventually consistent), it is
 * testable in workerd and the limit is configuration (`LEADS_RATE_LIMIT`).
 */
import { getConfig, parseRateLimitSpec, type Config } from "~/utils/config.server";

export interface RateLimit {
  /** Attempts per client network in one window. */
  max: number;
  windowMs: number;
  /** Attempts of all clients together in one window: a flood from many addresses stops here. */
  globalMax: number;
}

/** The global ceiling, unless configured: this many clients at their limit in one window. */
const GLOBAL_FACTOR = 100;

/** The limiter's view of LEADS_RATE_LIMIT as the configuration parsed it. */
export function rateLimitOf(spec: Config["leadsRateLimit"]): RateLimit {
  return { max: spec.attempts, windowMs: spec.seconds * 1000, globalMax: spec.global ?? spec.attempts * GLOBAL_FACTOR };
}

/**
 * "10/600" → 10 attempts per client per 600 s (and 100 × 10 for everyone); "10/600/500" sets the
 * global ceiling to 500. The configuration refuses anything else (getConfig).
 */
export function parseRateLimit(value: string): RateLimit {
  const spec = parseRateLimitSpec(value);
  if (!spec) throw new Error(`LEADS_RATE_LIMIT is not "attempts/seconds[/global]": ${value}`);
  return rateLimitOf(spec);
}

/**
 * The client's network as the limit counts it: an IPv4 address, or the /64 of an IPv6 address
 * (one subscriber line gets a whole /64, so single addresses would let one client rotate freely).
 */
export function clientNetwork(address: string | null): string {
  if (!address) return "unknown";
  const ip = address.trim().toLowerCase();
  if (!ip.includes(":")) return ip;
  const mapped = ip.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
  if (mapped) return mapped[1];
  const [head, tail = ""] = ip.split("::");
  const left = head ? head.split(":") : [];
  const right = ip.includes("::") && tail ? tail.split(":") : [];
  const groups = ip.includes("::") ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => (g.replace(/^0+(?=.)/, "") || "0"))
    .join(":")}::/64`;
}

/** The forms that are limited, each with its own counters, and what the visitor is told they sent. */
const SCOPES = { signup: "signup attempts", contact: "messages", account: "account changes", clientError: "error reports" } as const;
export type FormScope = keyof typeof SCOPES;

/** A keyed hash of (form, client network): the address itself is never stored. */
async function clientKey(request: Request, env: Env, scope: FormScope): Promise<string> {
  const network = clientNetwork(request.headers.get("CF-Connecting-IP"));
  const bytes = new TextEncoder().encode(`${getConfig(env).sessionSecrets[0] ?? ""}\u0000${scope}\u0000${network}`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest.subarray(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
}

export interface RateLimitOutcome {
  allowed: boolean;
  /** Seconds until the current window ends. */
  retryAfter: number;
  /** For the visitor when not allowed. */
  message: string;
}

/** One attempt of one client at one form, in the current window. */
export interface Attempt {
  scope: FormScope;
  key: string;
  /** The form's counter over every client. */
  globalKey: string;
  windowStart: number;
  max: number;
  globalMax: number;
  retryAfter: number;
}

export async function attemptFor(
  request: Request,
  env: Env,
  scope: FormScope,
  now = Date.now(),
): Promise<Attempt> {
  const limit = rateLimitOf(getConfig(env).leadsRateLimit);
  const windowStart = now - (now % limit.windowMs);
  return {
    scope,
    key: await clientKey(request, env, scope),
    globalKey: `*${scope}`,
    windowStart,
    max: limit.max,
    globalMax: limit.globalMax,
    retryAfter: Math.ceil((windowStart + limit.windowMs - now) / 1000),
  };
}

// The client's counter stops one past its limit: once refused, a client's further attempts update
// no row (D1 writes nothing when the upsert's WHERE is false) until its window ends.
const CLIENT_SQL = `INSERT INTO rate_limits (key, window_start, count) VALUES (?1, ?2, 1)
  ON CONFLICT (key, window_start) DO UPDATE SET count = count + 1 WHERE count <= ?3
  RETURNING count`;

// The form's counter counts only attempts within their client's limit, so one client moves it by
// at most `max` a window and only many clients together can fill it; it too stops one past its ceiling.
const GLOBAL_SQL = `INSERT INTO rate_limits (key, window_start, count)
  SELECT ?1, ?2, 1 WHERE (SELECT count FROM rate_limits WHERE key = ?4 AND window_start = ?2) <= ?5
  ON CONFLICT (key, window_start) DO UPDATE SET count = count + 1 WHERE count <= ?3
  RETURNING count`;

/** Counts the attempt for the client, then for the form: two statements, each returning its count when it changed one. */
export function countAttempt(db: D1Database, a: Attempt): [D1PreparedStatement, D1PreparedStatement] {
  return [
    db.prepare(CLIENT_SQL).bind(a.key, a.windowStart, a.max),
    db.prepare(GLOBAL_SQL).bind(a.globalKey, a.windowStart, a.globalMax, a.key, a.max),
  ];
}

/**
 * SQL condition, true while the attempt is within both limits: lets a write in the same batch as
 * countAttempt happen only then (one D1 round trip for a signup). Its parameters are numbered from
 * `first`; bind `params` after the statement's own.
 */
export function withinLimit(a: Attempt, first: number): { sql: string; params: (string | number)[] } {
  const [key, window, max, globalKey, globalMax] = [0, 1, 2, 3, 4].map((i) => `?${first + i}`);
  return {
    sql: `(SELECT count FROM rate_limits WHERE key = ${key} AND window_start = ${window}) <= ${max}
      AND (SELECT count FROM rate_limits WHERE key = ${globalKey} AND window_start = ${window}) <= ${globalMax}`,
    params: [a.key, a.windowStart, a.max, a.globalKey, a.globalMax],
  };
}

/**
 * After counting: prunes old windows when this attempt opened the form's window (once per form and
 * window; through `waitUntil` when given, so the answer does not wait), and says whether the
 * attempt is allowed.
 */
export async function settleAttempt(
  db: D1Database,
  a: Attempt,
  counts: { client: number; global: number },
  waitUntil?: (p: Promise<unknown>) => void,
): Promise<RateLimitOutcome> {
  if (counts.global === 1) {
    const prune = db.prepare("DELETE FROM rate_limits WHERE window_start < ?1").bind(a.windowStart).run();
    if (waitUntil) waitUntil(prune.catch(() => undefined));
    else await prune;
  }
  const minutes = Math.max(1, Math.ceil(a.retryAfter / 60));
  const wait = `Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
  const clientOver = counts.client > a.max;
  return {
    allowed: !clientOver && counts.global <= a.globalMax,
    retryAfter: a.retryAfter,
    message: clientOver ? `Too many ${SCOPES[a.scope]} from your network. ${wait}` : `We are receiving too many ${SCOPES[a.scope]} right now. ${wait}`,
  };
}

/** The counts returned by a batch that began with countAttempt's two statements; a counter that did not move is past its limit. */
export function countsOf(results: D1Result[]): { client: number; global: number } {
  const count = (r: D1Result | undefined) => (r?.results[0] as { count: number } | undefined)?.count ?? Infinity;
  return { client: count(results[0]), global: count(results[1]) };
}

/** Counts one attempt on its own (a form post that writes nothing itself) and says whether it is allowed. */
export async function hitRateLimit(db: D1Database, a: Attempt, waitUntil?: (p: Promise<unknown>) => void) {
  return settleAttempt(db, a, countsOf(await db.batch(countAttempt(db, a))), waitUntil);
}

/** The whole limiter in one call, for a form post of `scope`. */
export async function limitClient(
  request: Request,
  env: Env,
  scope: FormScope,
  waitUntil?: (p: Promise<unknown>) => void,
): Promise<RateLimitOutcome> {
  return hitRateLimit(env.DB, await attemptFor(request, env, scope), waitUntil);
}
