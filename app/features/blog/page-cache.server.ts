// Cache-Control of the /blog page itself: a shared cache (CDN) may keep an anonymous visitor's
// page briefly; the posts behind it stay fresh for 10 minutes in the worker's own cache.

export const PUBLIC_CACHE_CONTROL = "public, max-age=0, s-maxage=60, stale-while-revalidate=60";
export const PRIVATE_CACHE_CONTROL = "private, no-cache";

/**
 * The page is the same for every request without cookies; any cookie (a session, a flash
 * message) may change what the page shows, so those responses stay private.
 */
export function cacheControlFor(request: Request): string {
  return request.headers.has("Cookie") ? PRIVATE_CACHE_CONTROL : PUBLIC_CACHE_CONTROL;
}

/**
 * The route's headers: public only when no route above set a cookie on this response. A
 * `Content-Encoding` the loader chose is kept (see STREAMED_HEADERS).
 */
export function pageCacheHeaders(loaderHeaders: Headers, parentHeaders: Headers): Headers {
  const cacheControl = parentHeaders.has("Set-Cookie")
    ? PRIVATE_CACHE_CONTROL
    : (loaderHeaders.get("Cache-Control") ?? PRIVATE_CACHE_CONTROL);
  const headers = new Headers({ "Cache-Control": cacheControl });
  // A shared cache must not hand the anonymous page to a request that carries a session.
  if (cacheControl === PUBLIC_CACHE_CONTROL) headers.set("Vary", "Cookie");
  const encoding = loaderHeaders.get("Content-Encoding");
  if (encoding) headers.set("Content-Encoding", encoding);
  return headers;
}

/**
 * For a response whose posts are streamed: compressing it makes `wrangler dev` (workers-sdk
 * #6577) hold every byte until the stream ends, which would hide the spinner and delay the page.
 * The streamed payload is a few KB of post data.
 */
export const STREAMED_HEADERS = { "Content-Encoding": "identity" } as const;
