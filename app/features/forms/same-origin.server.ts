/**
 * The one cross-site judge, on top of SameSite cookies, for every request that changes something
 * (docs/decisions/054-same-origin-posts.md, 059): a browser names the page that sent a POST in
 * `Origin` (and `Sec-Fetch-Site`); a form on another site is refused with a 403 before anything is
 * read or changed. A GET with a side effect (logout, the leads CSV) asks it too: a top-level
 * navigation from another site carries Lax cookies and `Sec-Fetch-Site: cross-site` (or
 * `same-site`); the site's own links say `same-origin`, a typed URL or bookmark `none`. A request
 * without either header does not come from a current browser's page (every current browser sends
 * `Sec-Fetch-Site`), so it is not refused. Those GETs also refuse a subresource of any origin
 * (`requireNotSubresource`).
 */
import { BARE_NO_STORE } from "~/utils/no-store";
export function isCrossSite(request: Request): boolean {
  const origin = request.headers.get("Origin");
  if (origin !== null) return origin !== new URL(request.url).origin;
  const site = request.headers.get("Sec-Fetch-Site");
  return site !== null && site !== "same-origin" && site !== "none";
}

/**
 * Whether Fetch Metadata names the request a subresource: an image, script, style or frame
 * (`Sec-Fetch-Dest` other than `document` or `empty`), or a `no-cors` load. Such a request can
 * come from our own pages (a feed's cover image set to our own URL) and still carries every
 * cookie, so a GET with a side effect does nothing for it; a navigation (`document`) and our own
 * `fetch` (`empty`, `cors` or `same-origin`) pass, and a client that sends neither header is
 * judged by `isCrossSite` alone.
 */
export function isSubresource(request: Request): boolean {
  const dest = request.headers.get("Sec-Fetch-Dest");
  return (
    request.headers.get("Sec-Fetch-Mode") === "no-cors" || (dest !== null && dest !== "document" && dest !== "empty")
  );
}

const refusal = (what = "Cross-site request") =>
  new Response(`${what} refused.`, {
    status: 403,
    headers: { "Cache-Control": BARE_NO_STORE, "Content-Type": "text/plain; charset=utf-8" },
  });

/** Throws a 403 Response for a cross-site request (Remix answers a thrown Response as is). */
export function requireSameOrigin(request: Request): void {
  if (isCrossSite(request)) throw refusal();
}

/**
 * Throws a 403 Response for a GET whose side effect (a sign-out, an audited export) must not run:
 * a subresource's (isSubresource), whatever its origin.
 */
export function requireNotSubresource(request: Request): void {
  if (isSubresource(request)) throw refusal("Subresource request");
}

/** The resource routes under /api/ decide for themselves (the signup API takes other sites' forms). */
const API = /^\/api\//;

/**
 * The worker's answer to a cross-site POST to a page, before Remix sees it: Remix
 * itself aborts a page action whose `Origin` differs from `Host` with a bare 500 before the
 * action (and its requireSameOrigin) can run, so without this the visitor would get a server
 * error instead of the same 403 as the resource routes. Public forms (the signup API) are left alone.
 */
export function crossSiteRefusal(request: Request): Response | null {
  if (request.method === "GET" || request.method === "HEAD") return null;
  if (API.test(new URL(request.url).pathname)) return null;
  return isCrossSite(request) ? refusal() : null;
}
