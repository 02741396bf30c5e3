/**
 * The cross-site check every state-changing admin or member action makes on top of SameSite
 * cookies: a browser names the page that sent a POST in `Origin` (and `Sec-Fetch-Site`); a form on
 * another site is refused with a 403 before anything is read or changed. A request without either
 * header does not come from a browser page, so no visitor's cookies can have been borrowed.
 */
export function isCrossSite(request: Request): boolean {
  const origin = request.headers.get("Origin");
  if (origin !== null) return origin !== new URL(request.url).origin;
  const site = request.headers.get("Sec-Fetch-Site");
  return site !== null && site !== "same-origin" && site !== "none";
}

const refusal = () =>
  new Response("Cross-site request refused.", { status: 403, headers: { "Cache-Control": "no-store", "Content-Type": "text/plain; charset=utf-8" } });

/** Throws a 403 Response for a cross-site request (Remix answers a thrown Response as is). */
export function requireSameOrigin(request: Request): void {
  if (isCrossSite(request)) throw refusal();
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
