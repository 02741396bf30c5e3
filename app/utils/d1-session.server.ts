/**
 * Every request reads and writes D1 through one D1 session, so reads may come from the nearest
 * read replica while the request still sees its own writes (docs/decisions/020-d1-read-replicas.md).
 * A visitor whose request wrote gets the session's bookmark in a short-lived cookie: their next
 * requests start from it and read what they just wrote, wherever the replica. worker/server.ts
 * opens the session and gives it to the app as the load context's `env.DB`; `vite dev` keeps the
 * plain binding (one local database, nothing to lag). Every statement it runs is timed (into
 * `Server-Timing` only where SERVER_TIMING_DETAIL is on), and one slower than `SLOW_QUERY_MS` is
 * logged by its name.
 */
import { readConfig } from "~/utils/config.server";
import { carriesCookie, COOKIES, signedCookie } from "~/utils/cookies.server";
import { log } from "~/utils/log.server";
import { statementName, Timings } from "~/utils/timing.server";

/**
 * Seconds a bookmark cookie lives: far longer than a replica usually lags (well under a second),
 * and short, because while it lives the visitor's pages bypass the HTML cache.
 */
export const BOOKMARK_MAX_AGE_S = 60;

/** A bookmark as D1 writes them (`00000001-00000002-00004e2f-0a83…`); the cookie is signed anyway. */
const BOOKMARK = /^[0-9a-f]{8}(?:-[0-9a-f]{8}){2}-[0-9a-f]{16,64}$/i;

/**
 * A statement slower than this is logged (by its name, never its text or values): far above a
 * D1 query's usual few milliseconds, so a line means a missing index or a table scan to look at.
 */
const SLOW_QUERY_MS = 100;

/** The methods that run a prepared statement, each timed. */
const RUNS = ["first", "all", "run", "raw"] as const;

/** A prepared statement's name, for the batch that runs it. */
const NAMES = new WeakMap<D1PreparedStatement, string>();

interface RequestDbTiming {
  /** Where the request's timings go (a fresh list when none is given). */
  timings?: Timings;
  /** Overrides SLOW_QUERY_MS (tests). */
  slowQueryMs?: number;
}

/** Statements that only read. Anything else (INSERT, UPDATE, DELETE, a CTE, a pragma) counts as a write. */
const READ_ONLY = /^\s*select\b/i;

/** A write that names the content's generation (features/content/generation.server.ts): the cached pages' key moved. */
const CONTENT_GENERATION = /\bcontent_generation\b/;

/**
 * The D1 binding as one request sees it: a `D1Database` whose every statement runs in the same
 * `D1DatabaseSession` (drizzle's d1 driver calls only `prepare` and `batch`, which a session has).
 * It notes whether a statement that writes was prepared, so a response that wrote nothing sets
 * no cookie and stays cacheable.
 */
export class RequestDb implements D1Database {
  readonly #binding: D1Database;
  readonly #session: D1DatabaseSession;
  readonly #timings: Timings;
  readonly #slowQueryMs: number;
  #wrote = false;
  #changedContent = false;

  constructor(
    binding: D1Database,
    /** Where the session started: a constraint, or the bookmark the visitor carried. */
    readonly start: D1SessionBookmark | D1SessionConstraint,
    /** The request carried a bookmark cookie that did not verify: the response removes it. */
    readonly refusedCookie = false,
    { timings = new Timings(), slowQueryMs = SLOW_QUERY_MS }: RequestDbTiming = {},
  ) {
    this.#binding = binding;
    this.#session = binding.withSession(start);
    this.#timings = timings;
    this.#slowQueryMs = slowQueryMs;
  }

  prepare(query: string): D1PreparedStatement {
    if (!READ_ONLY.test(query)) {
      this.#wrote = true;
      if (CONTENT_GENERATION.test(query)) this.#changedContent = true;
    }
    return this.#timed(this.#session.prepare(query), statementName(query));
  }

  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    const names = [...new Set(statements.map((s) => NAMES.get(s) ?? "sql"))];
    return this.#measure(`batch: ${names.join(" + ")}`, () => this.#session.batch<T>(statements));
  }

  /**
   * The statement itself (D1's batch takes only its own statements), its run methods timed, and
   * `bind` handing back a timed statement too (Drizzle and `batch()` bind before they run).
   */
  #timed(statement: D1PreparedStatement, name: string): D1PreparedStatement {
    NAMES.set(statement, name);
    const methods = statement as unknown as Record<(typeof RUNS)[number] | "bind", (...args: unknown[]) => unknown>;
    const bind = methods.bind;
    methods.bind = (...values) => this.#timed(bind.apply(statement, values) as D1PreparedStatement, name);
    for (const method of RUNS) {
      const run = methods[method];
      methods[method] = (...args) => this.#measure(name, () => run.apply(statement, args) as Promise<unknown>);
    }
    return statement;
  }

  #measure<T>(name: string, run: () => Promise<T>): Promise<T> {
    return this.#timings.time("d1", name, run, (ms) => {
      if (ms >= this.#slowQueryMs)
        log("warn", "[d1] slow query", { requestId: this.#timings.requestId, statement: name, ms: Math.round(ms) });
    });
  }

  /** A session has no `exec`: run outside it, a write would escape the bookmark. The app never uses it. */
  exec(): Promise<D1ExecResult> {
    return Promise.reject(new Error("exec() is not available on a request's D1 session: use prepare()"));
  }

  /** A separate session, on purpose (the request's own is this object). */
  withSession(constraintOrBookmark?: D1SessionBookmark | D1SessionConstraint): D1DatabaseSession {
    return this.#binding.withSession(constraintOrBookmark);
  }

  /** Deprecated by D1 (alpha databases only). */
  dump(): Promise<ArrayBuffer> {
    return Promise.reject(new Error("dump() is not available on a request's D1 session"));
  }

  /**
   * A session of its own that starts at the primary, for a read that must be current even in a GET
   * (the session lookup), the same one each time. Its writes are not the request's: they set no bookmark cookie.
   */
  atPrimary(): RequestDb {
    // One per request: its reads share a round trip (`together`, docs/decisions/125).
    return (this.#primary ??= new RequestDb(this.#binding, "first-primary", false, {
      timings: this.#timings,
      slowQueryMs: this.#slowQueryMs,
    }));
  }
  #primary: RequestDb | undefined;

  /** Whether the request prepared a statement that writes. */
  get wrote(): boolean {
    return this.#wrote;
  }

  /** Whether the request prepared a write of the content's generation (worker/known-content.ts forgets its copy). */
  get changedContent(): boolean {
    return this.#changedContent;
  }

  /** The latest bookmark the session has seen, or null before its first query. */
  bookmark(): D1SessionBookmark | null {
    return this.#session.getBookmark();
  }
}

/**
 * D1 as a read that must be current sees it: in a request, a session that starts at the primary
 * (the request's own may read a replica); elsewhere (the Cron Trigger, `vite dev`) the plain
 * binding, which always queries the primary.
 */
export function atPrimary(env: Pick<Env, "DB">): Pick<Env, "DB"> {
  // Asked, not `instanceof`: the worker and the app's server build each bundle a copy of this class.
  const db = env.DB as D1Database & Partial<Pick<RequestDb, "atPrimary">>;
  return db.atPrimary ? { DB: db.atPrimary() } : env;
}

function bookmarkCookie(request: Request, env: Env) {
  return signedCookie(request, env, COOKIES.d1Bookmark, BOOKMARK_MAX_AGE_S);
}

/**
 * Where this request's session starts. Requests that change things (any method but GET and HEAD)
 * start at the primary: their reads (a lead before an admin acts on it, the suppression list before
 * a signup) must be current. A read carrying a verified bookmark starts there (the visitor reads
 * what they wrote); any other read starts at the nearest instance, replica or primary.
 */
export async function openRequestDb(request: Request, env: Env, timings?: Timings): Promise<RequestDb> {
  const reads = request.method === "GET" || request.method === "HEAD";
  if (!carriesCookie(request, COOKIES.d1Bookmark))
    return new RequestDb(env.DB, reads ? "first-unconstrained" : "first-primary", false, { timings });
  // A deploy that refuses to serve (configuration problems) has no secret to verify it with.
  const value: unknown = readConfig(env).config
    ? await bookmarkCookie(request, env).parse(request.headers.get("Cookie"))
    : null;
  const bookmark = typeof value === "string" && BOOKMARK.test(value) ? value : null;
  return new RequestDb(env.DB, !reads ? "first-primary" : (bookmark ?? "first-unconstrained"), !bookmark, { timings });
}

/**
 * The Set-Cookie the response needs, or null: the session's bookmark when the request wrote, the
 * removal of a bookmark cookie that did not verify. A request that only read sends none (a cookie
 * it carried expires by itself), so its page stays cacheable.
 */
export async function bookmarkSetCookie(request: Request, env: Env, db: RequestDb): Promise<string | null> {
  const bookmark = db.wrote ? db.bookmark() : null;
  if (bookmark) return bookmarkCookie(request, env).serialize(bookmark);
  if (db.refusedCookie) return bookmarkCookie(request, env).serialize("", { maxAge: undefined, expires: new Date(0) });
  return null;
}
