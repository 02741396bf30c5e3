/**
 * The one cookie rule of the worker: every cookie it sets is named here, and gets `Secure` and the
 * `__Host-` prefix (no subdomain can set or shadow it) everywhere except plain-http loopback
 * (`npm start`, the browser tests), where a browser would drop Secure cookies. A cookie scoped to a
 * path below `/` (the investor rooms' session, Path=/rooms/) cannot carry `__Host-`, which needs
 * Path=/: it gets `__Secure-` (still Secure only) instead. The sidebar's
 * `sidebar_state` is the one cookie the browser itself writes (components/shell/sidebar-state.ts).
 */
import type { Cookie } from "@remix-run/cloudflare";
// The adapter's own factory, given our signer: @remix-run/cloudflare builds its createCookie the same way.
import { createCookieFactory } from "@remix-run/server-runtime";
import { getConfig } from "~/utils/config.server";
import { parseCookieHeader } from "~/utils/cookie-header";
import { cookieSigner } from "~/utils/crypto.server";

const createCookie = createCookieFactory(cookieSigner);

/** Every cookie the server sets, by its base name (before the prefix). */
export const COOKIES = {
  /** The signed session token (session.server.ts). */
  session: "afx_session",
  /** A toast carried across one redirect (flash.server.ts). */
  flash: "afx_flash",
  /** A no-JS newsletter form's result, across its 303 (signup-result.server.ts). */
  signupResult: "afx_signup",
  /** A sign-in in progress at the provider: `afx_oauth:{uuid}`, one per started sign-in (oidc.server.ts). */
  oauthFlow: "afx_oauth",
  /** Where to land after the sign-in (oidc.server.ts). */
  returnTo: "afx_return_to",
  /** The confirmation link this browser just used, so Back to it says "confirmed" (newsletter.confirm.$token.tsx). */
  confirmed: "afx_confirmed",
  /** The D1 bookmark after a request that wrote, so the writer reads their own write (d1-session.server.ts). */
  d1Bookmark: "afx_d1_bookmark",
  /** An investor's room sessions, Path=/rooms/, apart from a member's sign-in (features/rooms/session.server.ts). */
  room: "afx_room",
} as const;

/** The paths our cookies are scoped to: the site, or the investor rooms. */
export type CookiePath = "/" | "/rooms/";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** `Secure` and the name prefix for this request's origin. */
export function cookieSecurity(request: Request): { secure: boolean; prefix: "" | "__Host-" } {
  // One request asks for every cookie it reads or sets, and each loader has its own copy of the
  // Request: the last URL's answer is kept rather than the URL parsed again each time.
  if (request.url === lastSecurity.url) return lastSecurity.security;
  const url = new URL(request.url);
  const plainLocal = url.protocol === "http:" && LOOPBACK.has(url.hostname);
  const security = plainLocal ? PLAIN_LOCAL : SECURE;
  lastSecurity = { url: request.url, security };
  return security;
}

const SECURE = Object.freeze({ secure: true, prefix: "__Host-" as const });
const PLAIN_LOCAL = Object.freeze({ secure: false, prefix: "" as const });
let lastSecurity: { url: string; security: { secure: boolean; prefix: "" | "__Host-" } } = {
  url: "",
  security: SECURE,
};

/** The full name of one of our cookies on this request's origin. */
export function cookieName(
  request: Request,
  base: (typeof COOKIES)[keyof typeof COOKIES],
  path: CookiePath = "/",
): string {
  const { secure, prefix } = cookieSecurity(request);
  return `${path === "/" ? prefix : secure ? "__Secure-" : ""}${base}`;
}

/** Options every cookie of ours shares (Remix's createCookie / createCookieSessionStorage). */
export function cookieOptions(request: Request, env: Env, maxAge: number, path: CookiePath = "/") {
  return {
    httpOnly: true,
    sameSite: "lax" as const,
    secure: cookieSecurity(request).secure,
    path,
    maxAge,
    // SESSION_SECRET, newest first: new cookies are signed with the first, any of them reads
    // one, so a rotation (prepend the new secret, drop the old a session lifetime later) signs nobody out.
    secrets: [...getConfig(env).sessionSecrets],
  };
}

/** Whether the request carries one of our cookies (valid or not), whichever prefix it has. */
export function carriesCookie(request: Request, base: (typeof COOKIES)[keyof typeof COOKIES]): boolean {
  const names = parseCookieHeader(request.headers.get("Cookie"));
  return names.has(base) || names.has(`__Host-${base}`) || names.has(`__Secure-${base}`);
}

// Remix's createCookie parses its options on every call; ours are fixed per name (which carries the
// origin's prefix, and so `Secure`), lifetime and secret list, so each is built once per isolate.
// Keyed by the parsed config's secret list (one per env), so a new secret builds new cookies.
const built = new WeakMap<readonly string[], Map<string, Cookie>>();

/**
 * One of our signed cookies, by the rule above. A value that does not verify or does not decode
 * reads as null, like a missing cookie: Remix's own `parse` throws on a signature that is not
 * base64, which would turn every page into a 500 for a visitor with a mangled cookie.
 */
export function signedCookie(
  request: Request,
  env: Env,
  base: (typeof COOKIES)[keyof typeof COOKIES],
  maxAge: number,
  path: CookiePath = "/",
): Cookie {
  const secrets = getConfig(env).sessionSecrets;
  const name = cookieName(request, base, path);
  let cookies = built.get(secrets);
  if (!cookies) built.set(secrets, (cookies = new Map()));
  const key = `${name} ${maxAge} ${path}`;
  let cookie = cookies.get(key);
  if (!cookie) {
    const remix = createCookie(name, cookieOptions(request, env, maxAge, path));
    cookie = {
      name: remix.name,
      isSigned: remix.isSigned,
      get expires() {
        return remix.expires;
      },
      parse: (header, options) => remix.parse(header, options).catch(() => null),
      serialize: (value, options) => remix.serialize(value, options),
    };
    cookies.set(key, cookie);
  }
  return cookie;
}
