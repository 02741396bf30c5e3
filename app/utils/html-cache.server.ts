/**
 * Rendered HTML for anonymous visitors, kept briefly in the Cache API so a page costs about what
 * a static file costs. Each hit is re-stamped with the response's fresh CSP nonce by HTMLRewriter,
 * so nonces stay unique per response.
 */

/** Seconds a rendered page is reused. Content pages are static; the blog's feed has its own cache. */
export const HTML_CACHE_TTL = 60;

/** The page's own Cache-Control, kept beside the Cache API's TTL in the stored copy. */
const PAGE_CACHE_CONTROL = "X-Page-Cache-Control";

/** Cookies that change nothing or are part of the key; any other cookie means "personal". */
const KEYED_COOKIES = ["sidebar_state"];

function cookies(request: Request): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name) map.set(name, rest.join("="));
  }
  return map;
}

/**
 * The cache key for a request whose page may come from the cache, or null when it must be
 * rendered: not a GET document request, or the visitor carries a session, a flash or any other
 * cookie that may personalise the page.
 */
export function htmlCacheKey(request: Request, version: string): Request | null {
  if (request.method !== "GET") return null;
  const url = new URL(request.url);
  if (url.pathname.endsWith(".data") || url.searchParams.has("_data")) return null;
  if (!(request.headers.get("Accept") ?? "").includes("text/html")) return null;
  const jar = cookies(request);
  for (const name of jar.keys()) if (!KEYED_COOKIES.includes(name)) return null;
  const key = new URL(url);
  key.searchParams.set("__v", version);
  for (const name of KEYED_COOKIES) key.searchParams.set(`__c_${name}`, jar.get(name) ?? "");
  return new Request(key.toString(), { method: "GET" });
}

/** Whether a freshly rendered response may be shared with other anonymous visitors. */
export function isCacheable(response: Response): boolean {
  return (
    response.status === 200 &&
    (response.headers.get("Content-Type") ?? "").startsWith("text/html") &&
    !response.headers.has("Set-Cookie") &&
    !/private|no-store/.test(response.headers.get("Cache-Control") ?? "")
  );
}

/** The stored copy: the body as rendered, the browser-facing headers, a TTL for the Cache API. */
export function toCacheEntry(body: ArrayBuffer, response: Response): Response {
  const headers = new Headers(response.headers);
  const pageCacheControl = response.headers.get("Cache-Control");
  if (pageCacheControl) headers.set(PAGE_CACHE_CONTROL, pageCacheControl);
  headers.set("Cache-Control", `public, max-age=${HTML_CACHE_TTL}`);
  return new Response(body, { status: response.status, headers });
}

/** A cached page with every nonce attribute replaced by this response's nonce. */
export function stampNonce(cached: Response, nonce: string): Response {
  const headers = new Headers(cached.headers);
  headers.delete("Cache-Control");
  headers.delete("Age");
  const pageCacheControl = headers.get(PAGE_CACHE_CONTROL);
  headers.delete(PAGE_CACHE_CONTROL);
  if (pageCacheControl) headers.set("Cache-Control", pageCacheControl);
  const original = new Response(cached.body, { status: cached.status, headers });
  return new HTMLRewriter()
    .on("[nonce]", {
      element(el) {
        el.setAttribute("nonce", nonce);
      },
    })
    .transform(original);
}
