/**
 * The local outage switch (docs/operate.md "Outages", docs/decisions/121-outages.md):
 * `PORT=<port> npm run fault -- d1 on|off` (and `r2`) makes a local server fail every D1 (or R2)
 * call until it is switched off, without a restart; the workers-pool tests throw the same switch.
 * Only a server whose ENVIRONMENT is not "production" has the path or wraps its bindings:
 * production answers `/__fault/…` as any unknown path and its bindings are the platform's own.
 *
 * The switch is kept in the Cache API (a named cache), not in a module variable: wrangler dev may
 * run a request, a queue batch and the next request in different isolates (and starts a new one
 * after every reload), and a local Cache API is one store under .wrangler/state that every
 * isolate of the server sees. It is read once per invocation, and only when the invocation calls
 * D1 or R2: a cached page's hit never reads it.
 */
import { withBindings } from "../app/utils/config.server";

export const FAULT_PATH = "/__fault/";
export const FAULT_KINDS = ["d1", "r2"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * `POST /__fault/d1-delay` with a number of ms (0 to end it): every D1 call waits that long first,
 * as from a far replica (bench/far-replica.mjs). Local only, like the switch.
 */
const DELAY = "d1-delay";

/** The error every faulted call rejects with: the same words a log line and a test read. */
export class LocalFault extends Error {
  constructor(kind: FaultKind) {
    super(`${kind === "d1" ? "D1" : "R2"} is unavailable (local fault switch: npm run fault -- ${kind} off)`);
    this.name = "LocalFault";
  }
}

const STORE = "afx-local-faults";
const entryUrl = (kind: FaultKind | typeof DELAY) => `https://faults.invalid/${kind}`;

/** Whether this deploy may honour the switch: never production (nor anything not declared local). */
export const honoursFaults = (env: Pick<Env, "ENVIRONMENT">) => env.ENVIRONMENT !== "production";

async function switchedOn(kind: FaultKind): Promise<boolean> {
  const cache = await caches.open(STORE);
  const entry = await cache.match(entryUrl(kind));
  if (!entry) return false;
  await entry.arrayBuffer();
  return true;
}

async function delayMs(): Promise<number> {
  const entry = await (await caches.open(STORE)).match(entryUrl(DELAY));
  return entry ? Number(await entry.text()) || 0 : 0;
}

/** Throws the switch (the `/__fault/` path and the tests). */
export async function setFault(kind: FaultKind, on: boolean): Promise<void> {
  const cache = await caches.open(STORE);
  if (on)
    await cache.put(entryUrl(kind), new Response("on", { headers: { "Cache-Control": "public, max-age=31536000" } }));
  else await cache.delete(entryUrl(kind));
}

/**
 * `POST /__fault/d1` with the body `on` or `off` (and `/__fault/r2`); `GET` reads both. Null for
 * any other path, and always null in production, whose router answers the path as unknown.
 */
export async function faultRoute(request: Request, env: Env, url: URL): Promise<Response | null> {
  if (!honoursFaults(env) || !url.pathname.startsWith(FAULT_PATH)) return null;
  const kind = url.pathname.slice(FAULT_PATH.length) as FaultKind;
  const plain = (text: string, status = 200) =>
    new Response(`${text}\n`, {
      status,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  if (request.method === "GET" && (kind as string) === "") {
    const states = await Promise.all(FAULT_KINDS.map(async (k) => `${k} ${(await switchedOn(k)) ? "on" : "off"}`));
    return plain(states.join("\n"));
  }
  if ((kind as string) === DELAY && request.method === "POST") {
    const ms = Number((await request.text()).trim());
    if (!Number.isInteger(ms) || ms < 0 || ms > 5_000) return plain("Send a whole number of ms, 0 to 5000.", 400);
    const cache = await caches.open(STORE);
    if (ms)
      await cache.put(
        entryUrl(DELAY),
        new Response(String(ms), { headers: { "Cache-Control": "public, max-age=86400" } }),
      );
    else await cache.delete(entryUrl(DELAY));
    return plain(`d1-delay ${ms}`);
  }
  if (!FAULT_KINDS.includes(kind)) return plain(`Unknown switch: use ${FAULT_KINDS.join(" or ")}.`, 404);
  if (request.method !== "POST") return plain("POST on or off.", 405);
  const state = (await request.text()).trim();
  if (state !== "on" && state !== "off") return plain("Send on or off.", 400);
  await setFault(kind, state === "on");
  return plain(`${kind} ${state}`);
}

/** What one invocation's bindings saw: whether a call failed, and the D1 round trips made. */
export interface BindingHealth {
  d1Failed: boolean;
  r2Failed: boolean;
  /** D1 round trips begun (a statement's run, or a batch: one each). */
  d1Trips: number;
}

/**
 * `env` with DB and DOCUMENTS failing while their switch is on (locally), and noting any failed
 * call either way, so the worker can tell an outage's 5xx from a bug's. In production the
 * bindings are the platform's own, wrapped only to note failures.
 */
export function watchedBindings(env: Env): { env: Env; health: BindingHealth } {
  const health: BindingHealth = { d1Failed: false, r2Failed: false, d1Trips: 0 };
  const local = honoursFaults(env);
  const memo: Partial<Record<FaultKind, Promise<boolean>>> = {};
  let delay: Promise<number> | undefined;
  const check = async (kind: FaultKind) => {
    if (!local) return;
    if (await (memo[kind] ??= switchedOn(kind))) throw new LocalFault(kind);
    const ms = kind === "d1" ? await (delay ??= delayMs()) : 0;
    if (ms) await new Promise((resolve) => setTimeout(resolve, ms));
  };
  const d1 = <T>(run: () => Promise<T>) => {
    health.d1Trips++;
    return check("d1")
      .then(run)
      .catch((error: unknown) => {
        health.d1Failed = true;
        throw error;
      });
  };
  const r2 = <T>(run: () => Promise<T>) =>
    check("r2")
      .then(run)
      .catch((error: unknown) => {
        health.r2Failed = true;
        throw error;
      });
  return {
    env: withBindings(env, { DB: watchedD1(env.DB, d1), DOCUMENTS: watchedR2(env.DOCUMENTS, r2) }),
    health,
  };
}

type Guard = <T>(run: () => Promise<T>) => Promise<T>;

const RUNS = ["first", "all", "run", "raw"] as const;

/** A prepared statement whose runs pass the guard; patched in place (D1's batch takes only its own statements). */
function guarded(statement: D1PreparedStatement, guard: Guard): D1PreparedStatement {
  const methods = statement as unknown as Record<(typeof RUNS)[number] | "bind", (...args: unknown[]) => unknown>;
  const bind = methods.bind;
  methods.bind = (...values) => guarded(bind.apply(statement, values) as D1PreparedStatement, guard);
  for (const method of RUNS) {
    const run = methods[method];
    methods[method] = (...args) => guard(() => run.apply(statement, args) as Promise<unknown>);
  }
  return statement;
}

function watchedSession(session: D1DatabaseSession, guard: Guard): D1DatabaseSession {
  return {
    prepare: (query) => guarded(session.prepare(query), guard),
    batch: (statements) => guard(() => session.batch(statements)),
    getBookmark: () => session.getBookmark(),
  };
}

function watchedD1(db: D1Database, guard: Guard): D1Database {
  return {
    prepare: (query) => guarded(db.prepare(query), guard),
    batch: (statements) => guard(() => db.batch(statements)),
    exec: (query) => guard(() => db.exec(query)),
    withSession: (start) => watchedSession(db.withSession(start), guard),
    dump: () => guard(() => db.dump()),
  };
}

function watchedR2(bucket: R2Bucket, guard: Guard): R2Bucket {
  const handler: ProxyHandler<R2Bucket> = {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== "function") return value;
      // Every method of a bucket is a call to R2 (head, get, put, list, delete, a multipart
      // upload's start); resuming one only names it (no call, and no promise).
      if (name === "resumeMultipartUpload") return (value as (...a: unknown[]) => unknown).bind(target);
      return (...args: unknown[]) => guard(async () => (value as (...a: unknown[]) => unknown).apply(target, args));
    },
  };
  return new Proxy(bucket, handler);
}

/**
 * Pages that cannot work without D1 but may answer before any call to it (an admin page's redirect
 * to sign-in, sign-in's own start): when their answer is a redirect, one `SELECT 1` says whether
 * D1 is there, so an outage answers them in words as it does a signed-in admin's page.
 */
const NEEDS_D1 = /^\/(?:admin(?:[/.]|$)|api\/(?:login|callback)$)/;

/** Whether the path is one of those: while D1 fails, it answers the outage's 503 whatever it rendered. */
export const needsD1 = (url: URL) => NEEDS_D1.test(url.pathname);

export async function probeD1IfNeeded(env: Env, health: BindingHealth, url: URL, status: number): Promise<void> {
  // A redirect (to sign-in, to the provider) may have been answered without D1; a page was not.
  if (health.d1Failed || status < 300 || status >= 400 || !needsD1(url)) return;
  await env.DB.prepare("SELECT 1")
    .first()
    .catch(() => undefined);
}
