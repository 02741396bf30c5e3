/**
 * The one rate limiter of the site's forms (docs/decisions/034-rate-limiter.md, 059): fixed-window
 * counters in D1, one atomic upsert per counter and attempt. A public form refuses a client only
 * past its own network's limit; its block (IPv6 /48, IPv4 /24) and the form's global ceiling
 * refuse nobody: past them the attempt is stored and answered as usual, and what the ceiling
 * protects (mail volume, the inbox's attention) is paced instead (`pacedUntil`). Only far above
 * the pace (STORE_FACTOR times a block's share, or the ceiling) is an attempt refused like a
 * client over its limit, so what a flood stores is bounded per window (104). The account forms
 * count per member and nothing else. Its callers make one call (limitClient), with the write the
 * form makes when the attempt is allowed, if any. Callers make their cheap checks (method, origin,
 * content type, size, syntax) first: the limiter writes, they do not. D1 rather than the Workers
 * Rate Limiting binding because its counts are exact (the binding is per location and eventually
 * consistent), it is testable in workerd and the limit is configuration (`LEADS_RATE_LIMIT`).
 */
import { and, eq, inArray, lt, sql, type SQL } from "drizzle-orm";
import { rateLimits } from "~/db/schema";
import { getConfig, parseRateLimitSpec, type Config } from "~/utils/config.server";
import { batch, columnName, getDb, together, type Statement } from "~/utils/db.server";

interface RateLimit {
  /** Attempts per client network in one window. */
  max: number;
  windowMs: number;
  /** Attempts of all clients together in one window: past it, their mail is paced. */
  globalMax: number;
}

/** The global ceiling, unless configured: this many clients at their limit in one window. */
const GLOBAL_FACTOR = 100;
/**
 * What is stored, unless configured: this many times the paced limits (a block's share, the
 * ceiling) per window. Past it, a block's (or everyone's) attempts are refused like a client's
 * over its limit, so a flood's stored rows and the mail they queue are bounded (104).
 */
export const STORE_FACTOR = 20;

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

/** An address as the limiter reads it: IPv4 as is, IPv6 as its eight groups (an IPv4-mapped one as its IPv4). */
function parseAddress(address: string): { v4: string } | { v6: string[] } {
  const ip = address.trim().toLowerCase();
  if (!ip.includes(":")) return { v4: ip };
  const mapped = ip.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/)?.[1];
  if (mapped) return { v4: mapped };
  const [head, tail = ""] = ip.split("::");
  const left = head ? head.split(":") : [];
  const right = ip.includes("::") && tail ? tail.split(":") : [];
  const groups = ip.includes("::")
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right]
    : left;
  return { v6: groups.map((g) => g.replace(/^0+(?=.)/, "") || "0") };
}

/**
 * The client's network as the limit counts it: an IPv4 address, or the /64 of an IPv6 address
 * (one subscriber line gets a whole /64, so single addresses would let one client rotate freely).
 */
export function clientNetwork(address: string | null): string {
  if (!address) return "unknown";
  const parsed = parseAddress(address);
  return "v4" in parsed ? parsed.v4 : `${parsed.v6.slice(0, 4).join(":")}::/64`;
}

/**
 * The block a client's network belongs to: an IPv6 /48 (one site's allocation: 65,536 /64s, free
 * from a tunnel broker) or an IPv4 /24. A block may fill only its share of a form's global ceiling.
 */
export function clientBlock(address: string | null): string {
  if (!address) return "unknown";
  const parsed = parseAddress(address);
  if ("v6" in parsed) return `${parsed.v6.slice(0, 3).join(":")}::/48`;
  const octets = parsed.v4.split(".");
  return octets.length === 4 ? `${octets.slice(0, 3).join(".")}.0/24` : parsed.v4;
}

/** The forms that are limited, each with its own counters, and what the visitor is told they sent. */
const SCOPES = {
  signup: "signup attempts",
  contact: "messages",
  account: "account changes",
  clientError: "error reports",
} as const;
export type FormScope = keyof typeof SCOPES;

/**
 * Who an attempt is counted for: the public forms count the visitor's network (and its block, and
 * everyone); the account forms count the signed-in member, by user id, and no one else, so no
 * address rotation, however cheap, moves another member's count.
 */
export type Counted = Exclude<FormScope, "account"> | { account: string };

/**
 * A block's share of the global ceiling, at least one client's limit: with the default 10/600
 * (ceiling 1,000) one /48 or /24 counts 100 attempts a window towards the ceiling; past its share
 * its own mail is paced, and only ten blocks together put everyone's mail on the pace.
 */
const BLOCK_SHARE = 10;

/** A keyed hash of (form, level, who): no address or user id is stored. */
async function counterKey(env: Env, scope: FormScope, level: string, who: string): Promise<string> {
  const bytes = new TextEncoder().encode(
    `${getConfig(env).sessionSecrets[0] ?? ""}\u0000${scope}\u0000${level}\u0000${who}`,
  );
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

/**
 * One counter an attempt moves, with its limit. A hard one (the client's network, the member)
 * refuses past it and stops counting one past it; a soft one (the block, the form's ceiling) only
 * paces the attempt's mail and keeps counting, so the pace knows how far past it the attempt is.
 */
interface Counter {
  key: string;
  max: number;
  hard: boolean;
  /** A soft counter's storage cap: past it, the attempt is refused like a hard counter's. */
  refuseAbove?: number;
}

/** One attempt at one form, in the current window (the limiter's own bookkeeping). */
interface Attempt {
  scope: FormScope;
  /** Narrowest first: each counts the attempt only while every one before it is within its limit. */
  counters: Counter[];
  windowStart: number;
  windowMs: number;
  retryAfter: number;
}

/** The global counter's key of a public form (no hash: it names no one). */
const globalKey = (scope: FormScope) => `*${scope}`;
/** The counter of everything a public form stored in the window (every attempt within a network's limit). */
const storedKey = (scope: FormScope) => `*${scope}/stored`;

async function attemptFor(request: Request, env: Env, counted: Counted, now: number): Promise<Attempt> {
  const limit = rateLimitOf(getConfig(env).leadsRateLimit);
  const windowStart = now - (now % limit.windowMs);
  const retryAfter = Math.ceil((windowStart + limit.windowMs - now) / 1000);
  const window = { windowStart, windowMs: limit.windowMs, retryAfter };
  if (typeof counted === "object") {
    const member = { key: await counterKey(env, "account", "member", counted.account), max: limit.max, hard: true };
    return { scope: "account", counters: [member], ...window };
  }
  const address = request.headers.get("CF-Connecting-IP");
  const store = getConfig(env).leadsRateLimit.store ?? STORE_FACTOR;
  const counters = [
    { key: await counterKey(env, counted, "network", clientNetwork(address)), max: limit.max, hard: true },
    // Before the block: it counts everything stored, however far past its share a block is.
    { key: storedKey(counted), max: store * limit.globalMax, hard: false, refuseAbove: store * limit.globalMax },
    {
      key: await counterKey(env, counted, "block", clientBlock(address)),
      max: blockShare(limit),
      hard: false,
      refuseAbove: store * blockShare(limit),
    },
    { key: globalKey(counted), max: limit.globalMax, hard: false },
  ];
  return { scope: counted, counters, ...window };
}

const blockShare = (limit: RateLimit) => Math.max(limit.max, Math.floor(limit.globalMax / BLOCK_SHARE));

const COUNT = columnName(rateLimits.count);
const KEY = sql`(${columnName(rateLimits.key)}, ${columnName(rateLimits.windowStart)})`;
const COLUMNS = sql`(${columnName(rateLimits.key)}, ${columnName(rateLimits.windowStart)}, ${COUNT})`;

/** The counter of `key` in the attempt's window, as a scalar subquery. */
const counter = (key: string, a: Attempt) =>
  sql`(SELECT ${rateLimits.count} FROM ${rateLimits} WHERE ${rateLimits.key} = ${key} AND ${rateLimits.windowStart} = ${a.windowStart})`;

/** True while the attempt is within the limits of `counters`, read after it was counted. */
const within = (counters: Counter[], a: Attempt) =>
  sql.join(
    counters.map((c) => sql`${counter(c.key, a)} <= ${c.max}`),
    sql` AND `,
  );

/** True while the attempt is allowed: within every hard limit and every storage cap. */
const allowed = (a: Attempt) =>
  sql.join(
    a.counters.flatMap((c) =>
      c.hard
        ? [sql`${counter(c.key, a)} <= ${c.max}`]
        : c.refuseAbove === undefined
          ? []
          : [sql`coalesce(${counter(c.key, a)}, 0) <= ${c.refuseAbove}`],
    ),
    sql` AND `,
  );

// Raw SQL (docs/decisions/024-data-layer.md): an upsert that stops counting past the limit and an
// INSERT … SELECT guarded by other rows, which Drizzle's insert builder cannot say.
// A hard counter stops one past its limit: once refused, further attempts update no row (D1 writes
// nothing when the upsert's WHERE is false) until the window ends. The first counts every attempt;
// each later one only attempts within the limits before it, so one network adds at most its own
// limit to its block, one block at most its share to the ceiling, and only many blocks fill it.
const count = (a: Attempt, i: number) => {
  const c = a.counters[i];
  if (!c) throw new RangeError(`No counter ${i}`);
  const insert =
    i === 0
      ? sql`INSERT INTO ${rateLimits} ${COLUMNS} VALUES (${c.key}, ${a.windowStart}, 1)`
      : sql`INSERT INTO ${rateLimits} ${COLUMNS} SELECT ${c.key}, ${a.windowStart}, 1 WHERE ${within(a.counters.slice(0, i), a)}`;
  const stop = c.hard ? sql` WHERE ${rateLimits.count} <= ${c.max}` : sql``;
  return sql`${insert} ON CONFLICT ${KEY} DO UPDATE SET ${COUNT} = ${rateLimits.count} + 1${stop} RETURNING ${COUNT}`;
};

/**
 * A write that a form makes only while its attempt is allowed: statements for the limiter's batch,
 * each made conditional on `guard` (a SQL condition, e.g. `INSERT … SELECT … WHERE ${guard}`).
 * They run in the same D1 batch right after the counting: one round trip, one transaction, and no
 * write for a refused attempt.
 */
export type GuardedWrite = (guard: SQL) => Statement[];

/** What the limiter decided, and the results of the guarded write's statements (in their order). */
type LimitedAttempt = RateLimitOutcome & {
  /**
   * Null while the attempt is within its block's share and the form's ceiling. Past either, when
   * its mail may leave (ms): the end of the window, then one e-mail per window ÷ limit for each
   * attempt further past it, so a burst's mail leaves at the ceiling's own rate (a block's at its
   * share's). The form still stores and answers as usual.
   */
  pacedUntil: number | null;
  results: unknown[];
};

const countOf = (r: D1Result | undefined) => (r?.results[0] as { count: number } | undefined)?.count ?? null;

/**
 * The limiter, in one call, for a form post: counts the attempt (a public form's for the client's
 * network, its block and the form; an account form's for the member; a counter that did not move
 * is past its limit, or was not reached), runs `write` in the same batch while the attempt is
 * allowed, prunes old windows when this attempt opened the widest counter's window (through
 * `waitUntil` when given, so the answer does not wait), and says whether the attempt is allowed
 * and whether its mail is paced. Only the client's own limit refuses: nobody else's attempts
 * can. Callers validate first: nothing is written for a request the form refuses. Ending a
 * session is never limited (it needs a live session, which only a sign-in makes).
 */
export async function limitClient(
  request: Request,
  env: Env,
  counted: Counted,
  waitUntil?: (p: Promise<unknown>) => void,
  write?: GuardedWrite,
  now = Date.now(),
): Promise<LimitedAttempt> {
  const db = getDb(env);
  const a = await attemptFor(request, env, counted, now);
  const all = await batch(db, [...a.counters.map((_, i) => count(a, i)), ...(write?.(allowed(a)) ?? [])]);
  const counts = (all.slice(0, a.counters.length) as D1Result[]).map(countOf);
  if (counts.at(-1) === 1) {
    const prune = db.delete(rateLimits).where(lt(rateLimits.windowStart, a.windowStart)).run();
    if (waitUntil) waitUntil(prune.catch(() => undefined));
    else await prune;
  }
  const minutes = Math.max(1, Math.ceil(a.retryAfter / 60));
  // A storage cap refuses like the client's own limit, with the same answer.
  const refused = a.counters.find((c, i) =>
    c.hard ? (counts[i] ?? Infinity) > c.max : c.refuseAbove !== undefined && (counts[i] ?? 0) > c.refuseAbove,
  );
  const what = SCOPES[a.scope];
  return {
    allowed: !refused,
    retryAfter: a.retryAfter,
    message: `${typeof counted === "object" ? `Too many ${what}.` : `Too many ${what} from your network.`} Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    pacedUntil: refused ? null : pacedUntil(a, counts),
    results: all.slice(a.counters.length),
  };
}

/**
 * When a paced attempt's mail may leave (LimitedAttempt.pacedUntil), or null when it is not paced:
 * for each soft counter past its limit (a counter that did not move was not reached), the end of
 * the window plus the attempt's place past the limit at the limit's own rate; the latest wins.
 */
function pacedUntil(a: Attempt, counts: (number | null)[]): number | null {
  const windowEnd = a.windowStart + a.windowMs;
  const slots = a.counters.flatMap((c, i) => {
    const n = counts[i] ?? null;
    return !c.hard && n !== null && n > c.max ? [windowEnd + Math.floor(((n - c.max - 1) * a.windowMs) / c.max)] : [];
  });
  return slots.length ? Math.max(...slots) : null;
}

/**
 * How far past each public form's ceiling the current window is (attempts counted beyond it): the
 * dashboard shows a burst while any is above zero, whose mail is then paced.
 */
export async function burstNow(env: Env, now = Date.now()): Promise<Partial<Record<FormScope, number>>> {
  const limit = rateLimitOf(getConfig(env).leadsRateLimit);
  const windowStart = now - (now % limit.windowMs);
  const scopes = ["signup", "contact"] as const satisfies readonly FormScope[];
  const db = getDb(env);
  const [rows] = await together(db, [
    db
      .select({ key: rateLimits.key, count: rateLimits.count })
      .from(rateLimits)
      .where(and(inArray(rateLimits.key, scopes.map(globalKey)), eq(rateLimits.windowStart, windowStart))),
  ]);
  return Object.fromEntries(
    scopes.flatMap((scope) => {
      const over = (rows.find((r) => r.key === globalKey(scope))?.count ?? 0) - limit.globalMax;
      return over > 0 ? [[scope, over]] : [];
    }),
  );
}
