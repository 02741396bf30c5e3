/**
 * The one cookie rule of the worker: every cookie it sets is named here, and gets `Secure` and the
 * `__Host-` prefix (no subdomain can set or shadow it) everywhere except plain-http loopback
 * (`npm start`, the browser tests), where a browser would drop Secure cookies. The sidebar's
 * `sidebar_state` is the one cookie the browser itself writes (components/shell/sidebar-state.ts).
 */
import { createCookie, type Cookie } from "@remix-run/cloudflare";
import { getConfig } from "~/utils/config.server";
import { parseCookieHeader } from "~/utils/cookie-header";

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
  /** The D1 bookmark after a request that wrote, so the writer reads their own write (d1-session.server.ts). */
  d1Bookmark: "afx_d1_bookmark",
} as const;

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** `Secure` and the name prefix for this request's origin. */
export function cookieSecurity(request: Request) {
  const url = new URL(request.url);
  const plainLocal = url.protocol === "http:" && LOOPBACK.has(url.hostname);
  return { secure: !plainLocal, prefix: plainLocal ? "" : "__Host-" };
}

/** The full name of one of our cookies on this request's origin. */
export function cookieName(request: Request, base: (typeof COOKIES)[keyof typeof COOKIES]): string {
  return `${cookieSecurity(request).prefix}${base}`;
}

/** Options every cookie of ours shares (Remix's createCookie / createCookieSessionStorage). */
export function cookieOptions(request: Request, env: Env, maxAge: number) {
  return {
    httpOnly: true,
    sameSite: "lax" as const,
    secure: cookieSecurity(request).secure,
    path: "/",
    maxAge,
    // SESSION_SECRET, newest first: new cookies are signed with the first, any of them reads
    // one, so a rotation (prepend the new secret, drop the old a session lifetime later) signs nobody out.
    secrets: [...getConfig(env).sessionSecrets],
  };
}

/** Whether the request carries one of our cookies (valid or not), whichever prefix it has. */
export function carriesCookie(request: Request, base: (typeof COOKIES)[keyof typeof COOKIES]): boolean {
  const names = parseCookieHeader(request.headers.get("Cookie"));
  return names.has(base) || names.has(`__Host-${base}`);
}

/**
 * One of our signed cookies, by the rule above. A value that does not verify or does not decode
 * reads as null, like a missing cookie: Remix's own `parse` throws on a signature that is not
 * base64, which would turn every page into a 500 for a visitor with a mangled cookie.
 */
export function signedCookie(request: Request, env: Env, base: (typeof COOKIES)[keyof typeof COOKIES], maxAge: number): Cookie {
  const cookie = createCookie(cookieName(request, base), cookieOptions(request, env, maxAge));
  return {
    get name() {
      return cookie.name;
    },
    get isSigned() {
      return cookie.isSigned;
    },
    get expires() {
      return cookie.expires;
    },
    parse: (header, options) => cookie.parse(header, options).catch(() => null),
    serialize: (value, options) => cookie.serialize(value, options),
  };
}
