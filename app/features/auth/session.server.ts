import { createCookieSessionStorage } from "@remix-run/cloudflare";
import { eq, lt, sql } from "drizzle-orm";
import { sessions, users, type User } from "~/db/schema";
import { getConfig, isRequestEnv } from "~/utils/config.server";
import { carriesCookie, COOKIES, signedCookie } from "~/utils/cookies.server";
import { batch, getDb, together } from "~/utils/db.server";
import { atPrimary } from "~/utils/d1-session.server";
import { randomToken, sha256Hex } from "~/utils/crypto.server";

/**
 * Sessions (docs/decisions/004-sign-in.md "Sessions"): the signed cookie holds a random token,
 * D1 holds the token's SHA-256 with the session's start and last activity. Every request checks
 * the row, so logout, "sign out everywhere", a deleted member and an old session end on the server,
 * not only in the browser.
 */

/** Idle limit, and the cookie's rolling lifetime: renewed while the member keeps visiting. */
export const SESSION_MAX_AGE_S = 30 * 24 * 60 * 60;
const IDLE_LIMIT_MS = SESSION_MAX_AGE_S * 1000;
/** Absolute limit: a session older than this ends however active it is; sign in again. */
const SESSION_ABSOLUTE_LIMIT_MS = 90 * 24 * 60 * 60 * 1000;
/** Renew the cookie (and the row's last activity) at most once a day: one write a day per member. */
const RENEW_AFTER_MS = 24 * 60 * 60 * 1000;

interface SessionCookie {
  /** Random, 32 bytes; D1 keeps only its hash. */
  token: string;
  /** Epoch ms of the last time the cookie was (re)issued. */
  renewedAt: number;
}

function storage(request: Request, env: Env) {
  return createCookieSessionStorage<SessionCookie>({
    cookie: signedCookie(request, env, COOKIES.session, SESSION_MAX_AGE_S),
  });
}

/**
 * The member of this request's session, or null: no cookie, a bad signature, an unknown or
 * revoked token, a session past its idle or absolute limit (its row is deleted then), a deleted
 * member. A refused cookie is removed from the browser; a session due for renewal is extended.
 */
export function readSession(request: Request, env: Env): Promise<SessionRead> {
  // A GET or HEAD reads its session once, however many loaders ask (the root's and an admin
  // page's guard): Remix hands each loader its own copy of the Request, but the worker gives each
  // request its own env (withBindings). A request that may write (an action, then its loaders, in
  // one no-JS POST) reads afresh each time, so it never sees a session it has just ended.
  if ((request.method !== "GET" && request.method !== "HEAD") || !isRequestEnv(env))
    return readSessionNow(request, env);
  let read = sessionReads.get(env);
  if (!read) sessionReads.set(env, (read = readSessionNow(request, env)));
  return read;
}

type SessionRead = { user: User | null; setCookies: string[] };
/** Per request env (one request, so one Cookie header): its session read. */
const sessionReads = new WeakMap<Env, Promise<SessionRead>>();

async function readSessionNow(request: Request, env: Env): Promise<SessionRead> {
  if (!getConfig(env).sessionSecrets.length) return { user: null, setCookies: [] };
  const store = storage(request, env);
  const session = await store.getSession(request.headers.get("Cookie"));
  const token = session.get("token");
  if (typeof token !== "string" || !token) return { user: null, setCookies: [] };

  // At the primary, even in a GET: a session ended on another device ("sign out everywhere",
  // erasure) is refused at once, not after a replica's lag (docs/decisions/059-limits-gets-and-revocation.md).
  // One query per request (the read is shared by its loaders); the rest of the request may read a replica.
  const db = getDb(atPrimary(env));
  const id = await sha256Hex(token);
  // In one round trip with the request's other reads at the primary (the root's ventures for a
  // member: docs/decisions/125); a batch's rows are keyed by column name, so the session's own
  // times are named apart from the user's.
  const [[row]] = await together(db, [
    db
      .select({
        user: users,
        createdAt: sql`${sessions.createdAt}`.mapWith(sessions.createdAt).as("session_created_at"),
        lastSeenAt: sql`${sessions.lastSeenAt}`.mapWith(sessions.lastSeenAt).as("session_last_seen_at"),
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.id, id)),
  ]);
  const now = Date.now();
  const refused = async () => ({ user: null, setCookies: [await store.destroySession(session)] });
  if (!row) return refused();
  if (now - row.lastSeenAt.getTime() > IDLE_LIMIT_MS || now - row.createdAt.getTime() > SESSION_ABSOLUTE_LIMIT_MS) {
    await db.delete(sessions).where(eq(sessions.id, id));
    return refused();
  }
  const renewedAt = session.get("renewedAt") ?? 0;
  if (now - renewedAt < RENEW_AFTER_MS) return { user: row.user, setCookies: [] };
  await db
    .update(sessions)
    .set({ lastSeenAt: new Date(now) })
    .where(eq(sessions.id, id));
  session.set("renewedAt", now);
  return { user: row.user, setCookies: [await store.commitSession(session)] };
}

/**
 * Starts a session for `userId` (a new token at each sign-in) and returns its Set-Cookie. Sessions
 * idle past the limit, anyone's, are pruned on the way: sign-ins are rare, requests are not.
 */
export async function startSession(request: Request, env: Env, userId: string) {
  const token = randomToken();
  const now = Date.now();
  const db = getDb(env);
  await batch(db, [
    db.delete(sessions).where(lt(sessions.lastSeenAt, new Date(now - IDLE_LIMIT_MS))),
    db
      .insert(sessions)
      .values({ id: await sha256Hex(token), userId, createdAt: new Date(now), lastSeenAt: new Date(now) }),
  ]);
  const store = storage(request, env);
  const session = await store.getSession();
  session.set("token", token);
  session.set("renewedAt", now);
  return store.commitSession(session);
}

/**
 * Ends this request's session on the server (and, with `everywhere`, every session of its member)
 * and returns the Set-Cookie that removes the cookie.
 */
export async function endSession(request: Request, env: Env, { everywhere = false } = {}) {
  const store = storage(request, env);
  const session = await store.getSession(request.headers.get("Cookie"));
  const token = session.get("token");
  if (typeof token === "string" && token) {
    const db = getDb(env);
    const id = await sha256Hex(token);
    if (everywhere) {
      const row = await db.select({ userId: sessions.userId }).from(sessions).where(eq(sessions.id, id)).get();
      if (row) await db.delete(sessions).where(eq(sessions.userId, row.userId));
    } else {
      await db.delete(sessions).where(eq(sessions.id, id));
    }
  }
  return store.destroySession(session);
}

/** Whether the request carries a session cookie at all (valid or not): its answers are personal. */
export function carriesSession(request: Request): boolean {
  return carriesCookie(request, COOKIES.session);
}
