/**
 * The one rate limiter of the site's forms (docs/decisions/005-newsletter-and-leads.md): a
 * fixed-window counter in D1, one atomic upsert per attempt, per form ("scope") and per client
 * network, under a global ceiling per form that only attempts within their client's limit reach
 * (docs/decisions/013-security-hardening.md). Its callers make one call (limitClient), with the
 * write the form makes when the attempt is allowed, if any. Callers make their cheap checks (method, origin,
 * content type, size, syntax) first: the limiter writes, they do not. D1 rather than the Workers Rate Limiting binding
 * because its counts are exact (the binding is per location and eventually consistent), it is
 * testable in workerd and the limit is configuration (`LEADS_RATE_LIMIT`).
 */
import { lt, sql, type SQL } from "drizzle-orm";
import { rateLimits } from "~/db/schema";
import { getConfig, parseRateLimitSpec, type Config } from "~/utils/config.server";
import { columnName, getDb, statement } from "~/utils/db.server";

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

/** One attempt of one client at one form, in the current window (the limiter's own bookkeeping). */
interface Attempt {
  scope: FormScope;
  key: string;
  /** The form's counter over every client. */
  globalKey: string;
  windowStart: number;
  max: number;
  globalMax: number;
  retryAfter: number;
}

async function attemptFor(request: Request, env: Env, scope: FormScope, now: number): Promise<Attempt> {
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

const COUNT = columnName(rateLimits.count);
const KEY = sql`(${columnName(rateLimits.key)}, ${columnName(rateLimits.windowStart)})`;
const COLUMNS = sql`(${columnName(rateLimits.key)}, ${columnName(rateLimits.windowStart)}, ${COUNT})`;

// Raw SQL (docs/decisions/024-data-layer.md): an upsert that stops counting past the limit and an
// INSERT … SELECT guarded by another row, which Drizzle's insert builder cannot say.
// The client's counter stops one past its limit: once refused, a client's further attempts update
// no row (D1 writes nothing when the upsert's WHERE is false) until its window ends.
const countClient = (a: Attempt) =>
  sql`INSERT INTO ${rateLimits} ${COLUMNS} VALUES (${a.key}, ${a.windowStart}, 1)
    ON CONFLICT ${KEY} DO UPDATE SET ${COUNT} = ${rateLimits.count} + 1 WHERE ${rateLimits.count} <= ${a.max}
    RETURNING ${COUNT}`;

/** The counter of `key` in the attempt's window, as a scalar subquery. */
const counter = (key: string, a: Attempt) =>
  sql`(SELECT ${rateLimits.count} FROM ${rateLimits} WHERE ${rateLimits.key} = ${key} AND ${rateLimits.windowStart} = ${a.windowStart})`;

// The form's counter counts only attempts within their client's limit, so one client moves it by
// at most `max` a window and only many clients together can fill it; it too stops one past its ceiling.
const countForm = (a: Attempt) =>
  sql`INSERT INTO ${rateLimits} ${COLUMNS}
    SELECT ${a.globalKey}, ${a.windowStart}, 1 WHERE ${counter(a.key, a)} <= ${a.max}
    ON CONFLICT ${KEY} DO UPDATE SET ${COUNT} = ${rateLimits.count} + 1 WHERE ${rateLimits.count} <= ${a.globalMax}
    RETURNING ${COUNT}`;

/** True while the attempt is within both limits, read after it was counted. */
const withinLimit = (a: Attempt) => sql`${counter(a.key, a)} <= ${a.max} AND ${counter(a.globalKey, a)} <= ${a.globalMax}`;

/**
 * A write that a form makes only while its attempt is within the limit: statements for the
 * limiter's batch, each made conditional on `guard` (a SQL condition, e.g. `INSERT … SELECT … WHERE
 * ${guard}`). They run in the same D1 batch right after the counting: one round trip, one
 * transaction, and no write for an attempt over the limit.
 */
export type GuardedWrite = (guard: SQL) => D1PreparedStatement[];

/** What the limiter decided, and the results of the guarded write's statements (in their order). */
export type LimitedAttempt = RateLimitOutcome & { results: D1Result[] };

const countOf = (r: D1Result | undefined) => (r?.results[0] as { count: number } | undefined)?.count ?? Infinity;

/**
 * The limiter, in one call, for a form post of `scope`: counts the attempt (for the client, then
 * for the form; a counter that did not move is past its limit), runs `write` in the same batch
 * under the limit, prunes old windows when this attempt opened the form's window (once per form
 * and window; through `waitUntil` when given, so the answer does not wait), and says whether the
 * attempt is allowed. Callers validate first: nothing is written for a request the form refuses.
 */
export async function limitClient(
  request: Request,
  env: Env,
  scope: FormScope,
  waitUntil?: (p: Promise<unknown>) => void,
  write?: GuardedWrite,
  now = Date.now(),
): Promise<LimitedAttempt> {
  const db = env.DB;
  const a = await attemptFor(request, env, scope, now);
  const [client, global, ...results] = await db.batch([
    statement(db, countClient(a)),
    statement(db, countForm(a)),
    ...(write?.(withinLimit(a)) ?? []),
  ]);
  const counts = { client: countOf(client), global: countOf(global) };
  if (counts.global === 1) {
    const prune = getDb(env).delete(rateLimits).where(lt(rateLimits.windowStart, a.windowStart)).run();
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
    results: results as D1Result[],
  };
}
