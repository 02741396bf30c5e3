import { createCookieSessionStorage } from "@remix-run/cloudflare";

/** Rolling lifetime of a session (DESIGN.md "Sessions"): renewed while the member keeps visiting. */
export const SESSION_MAX_AGE_S = 30 * 24 * 60 * 60;
/** Renew the cookie at most once a day, so ordinary responses carry no Set-Cookie. */
const RENEW_AFTER_MS = 24 * 60 * 60 * 1000;

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Cookie flags for this request's origin: `Secure` and the `__Host-` prefix everywhere except
 * plain-http loopback (`npm start`, the browser tests), where a browser would drop Secure cookies.
 */
export function cookieSecurity(request: Request) {
  const url = new URL(request.url);
  const plainLocal = url.protocol === "http:" && LOOPBACK.has(url.hostname);
  return { secure: !plainLocal, prefix: plainLocal ? "" : "__Host-" };
}

interface SessionData {
  userId: string;
  /** Epoch ms of the last time the cookie was (re)issued. */
  renewedAt: number;
}

function storage(request: Request, env: Pick<Env, "SESSION_SECRET">) {
  const { secure, prefix } = cookieSecurity(request);
  return createCookieSessionStorage<SessionData>({
    cookie: {
      name: `${prefix}afx_session`,
      httpOnly: true,
      sameSite: "lax",
      secure,
      path: "/",
      maxAge: SESSION_MAX_AGE_S,
      secrets: [env.SESSION_SECRET],
    },
  });
}

/**
 * The user id of this request's session, or null (no cookie, a bad signature, no secret).
 * `renew` is a Set-Cookie that extends the session when it is more than a day old.
 */
export async function readSession(request: Request, env: Pick<Env, "SESSION_SECRET">) {
  if (!env.SESSION_SECRET) return { userId: null, renew: null };
  const store = storage(request, env);
  const session = await store.getSession(request.headers.get("Cookie"));
  const userId = session.get("userId");
  if (typeof userId !== "string" || !userId) return { userId: null, renew: null };
  const renewedAt = session.get("renewedAt") ?? 0;
  if (Date.now() - renewedAt < RENEW_AFTER_MS) return { userId, renew: null };
  session.set("renewedAt", Date.now());
  return { userId, renew: await store.commitSession(session) };
}

/** Set-Cookie for a fresh session of `userId` (a new cookie at each sign-in). */
export async function startSession(request: Request, env: Pick<Env, "SESSION_SECRET">, userId: string) {
  const store = storage(request, env);
  const session = await store.getSession();
  session.set("userId", userId);
  session.set("renewedAt", Date.now());
  return store.commitSession(session);
}

/** Set-Cookie that removes the session cookie. */
export async function endSession(request: Request, env: Pick<Env, "SESSION_SECRET">) {
  const store = storage(request, env);
  return store.destroySession(await store.getSession());
}
