/**
 * Rendered HTML for anonymous visitors, kept briefly in the Cache API so a page costs about what
 * a static file costs. Each hit is re-stamped with the response's fresh CSP nonce by HTMLRewriter,
 * so nonces stay unique per response.
 */
import { readSidebarCookie, SIDEBAR_COOKIE } from "~/components/shell/sidebar-state";
import { parseCookieHeader } from "~/utils/cookie-header";
import { acceptsStreamedData, wantsCompleteDocument } from "~/utils/render-mode.server";

/** Seconds a rendered page is reused. Content pages are static; the blog's feed has its own cache. */
export const HTML_CACHE_TTL = 60;

/** The page's own Cache-Control, kept beside the Cache API's TTL in the stored copy. */
const PAGE_CACHE_CONTROL = "X-Page-Cache-Control";

/**
 * The cookies a page's render reads and the key therefore holds, each as the render reads it
 * (`sidebar_state=true` and no cookie both render the default state, so they share one entry).
 * Any other cookie may personalise the page (a session, a flash, a signup result): no cache.
 */
const KEYED_COOKIES: Record<string, (header: string | null) => string> = {
  [SIDEBAR_COOKIE]: readSidebarCookie,
};

/**
 * The cache key for a request whose page may come from the cache, or null when it must be
 * rendered: not a GET document request, a request the render would stream data to, or a visitor
 * carrying a cookie that may personalise the page. The key holds every input of the render that
 * can differ between two such requests: the build, the URL, the keyed cookies as read, and
 * whether the document is rendered complete for a crawler.
 */
export function htmlCacheKey(request: Request, version: string): Request | null {
  if (request.method !== "GET") return null;
  const url = new URL(request.url);
  if (url.pathname.endsWith(".data") || url.searchParams.has("_data")) return null;
  if (!(request.headers.get("Accept") ?? "").includes("text/html")) return null;
  if (acceptsStreamedData(request)) return null;
  const header = request.headers.get("Cookie");
  for (const name of parseCookieHeader(header).keys()) if (!(name in KEYED_COOKIES)) return null;
  const key = new URL(url);
  key.searchParams.set("__v", version);
  for (const [name, read] of Object.entries(KEYED_COOKIES)) key.searchParams.set(`__c_${name}`, read(header));
  if (wantsCompleteDocument(request)) key.searchParams.set("__complete", "1");
  return new Request(key.toString(), { method: "GET" });
}

/**
 * Headers that describe one transfer, not the page: a stored copy keeps none of them (a kept
 * `Content-Encoding` would label the next visitor's body with an encoding it does not have).
 */
const TRANSFER_HEADERS = [
  "Content-Encoding",
  "Content-Length",
  "Transfer-Encoding",
  "Connection",
  "Keep-Alive",
  "Date",
  "Age",
  "Server-Timing",
  "Set-Cookie",
];

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
  for (const name of TRANSFER_HEADERS) headers.delete(name);
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
