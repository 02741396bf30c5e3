/**
 * Private answers (admin pages, token pages, a member's data): never stored by a browser or a
 * shared cache. The one place the header is spelled (tests/node/no-store.test.ts): routes that
 * answer this way export `headers` from here.
 */
import type { HeadersFunction } from "@remix-run/cloudflare";

/** The Cache-Control value of every private answer. */
export const PRIVATE_NO_STORE = "private, no-store";

/**
 * `no-store` alone: refusals (400, 401, 403, 404, 413, 415), the sign-in and sign-out steps and
 * the admin's downloads. No browser or cache keeps them either; the value stays as clients and
 * tests read it.
 */
export const BARE_NO_STORE = "no-store";

/** Response headers of a private answer: `{ headers: NO_STORE }`. */
export const NO_STORE = { "Cache-Control": PRIVATE_NO_STORE } as const;

/**
 * A page or file behind a token in its URL (an investor's invitation, their room, a mailed link):
 * private, and no Referer names that URL to whatever it links to.
 */
export const NO_STORE_NO_REFERRER = { ...NO_STORE, "Referrer-Policy": "no-referrer" } as const;

/**
 * A private route's `headers`: the action's when it answered with its own Cache-Control (a form's
 * refusal or result), else the loader's (a redirect is sent as it is, never through this).
 */
export const headers: HeadersFunction = ({ actionHeaders, loaderHeaders }) =>
  actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders;
