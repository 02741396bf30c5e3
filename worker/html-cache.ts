/**
 * Rendered HTML for anonymous visitors, kept briefly in the Cache API so a page costs about what
 * a static file costs. A hit is served exactly as stored: when a page is stored its inline
 * scripts lose their nonce (the render's, sent once) and the entry keeps their SHA-256 hashes,
 * which the hit's CSP lists instead (docs/decisions/008-html-cache.md).
 */
import { readSidebarCookie, SIDEBAR_COOKIE } from "~/components/shell/sidebar-state";
import { parseCookieHeader } from "~/utils/cookie-header";
import { acceptsStreamedData, wantsCompleteDocument } from "~/utils/render-mode.server";
import { hashSource } from "./security-headers";

/** Seconds a rendered page is reused. Content pages are static; the blog's feed has its own cache. */
export const HTML_CACHE_TTL = 60;

/**
 * Seconds a page is kept past its freshness, to be served only while D1 fails (RFC 5861's
 * stale-if-error; docs/decisions/121-outages.md): never while D1 answers.
 */
export const STALE_IF_ERROR_S = 24 * 60 * 60;

/** When the stored copy was rendered (ms since the epoch): its freshness is judged from it. */
const STORED_AT = "X-Stored-At";

/** The page's own Cache-Control, kept beside the Cache API's TTL in the stored copy. */
const PAGE_CACHE_CONTROL = "X-Page-Cache-Control";

/** The CSP hash sources of the stored page's inline scripts, space-separated. */
const SCRIPT_HASHES = "X-Script-Hashes";

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
 * whether the document is rendered complete for a crawler. Those that are not the URL go in the
 * key's path, before the URL's own: a URL can only ever name its own entry, whatever parameters
 * it spells.
 */
export function htmlCacheKey(
  request: Request,
  version: string,
  url = new URL(request.url),
  /** More inputs of this page's render (the content's generation: worker/server.ts, docs/decisions/090). */
  extra: readonly string[] = [],
): Request | null {
  if (request.method !== "GET") return null;
  if (url.searchParams.has("_data")) return null;
  if (!(request.headers.get("Accept") ?? "").includes("text/html")) return null;
  if (acceptsStreamedData(request)) return null;
  const header = request.headers.get("Cookie");
  for (const name of parseCookieHeader(header).keys()) if (!(name in KEYED_COOKIES)) return null;
  const inputs = [
    version,
    ...Object.entries(KEYED_COOKIES).map(([name, read]) => `${name}=${read(header)}`),
    wantsCompleteDocument(request) ? "complete" : "streamed",
    ...extra,
  ];
  const prefix = inputs.map((input) => `/${encodeURIComponent(input)}`).join("");
  return new Request(`${url.origin}/__html${prefix}${url.pathname}${url.search}`, { method: "GET" });
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

/**
 * The stored copy of a rendered page: the body without nonce attributes, the browser-facing
 * headers, a TTL for the Cache API, and the hashes of the inline scripts the render trusted (those
 * carrying its nonce). Null when the page cannot be stored that way: a nonce on anything but an
 * inline script (a nonce'd stylesheet or external script has no hash to stand in for it).
 */
export async function toCacheEntry(rendered: Response): Promise<Response | null> {
  const scripts: string[] = [];
  let hashable = true;
  let current: string[] | null = null;
  const stripped = new HTMLRewriter()
    .on("[nonce]", {
      element(el) {
        el.removeAttribute("nonce");
        if (el.tagName !== "script" || el.hasAttribute("src")) {
          hashable = false;
          return;
        }
        const text: string[] = (current = []);
        el.onEndTag(() => {
          scripts.push(text.join(""));
          current = null;
        });
      },
    })
    .on("script", {
      text(chunk) {
        current?.push(chunk.text);
      },
    })
    .transform(new Response(rendered.body, rendered));
  const body = await stripped.arrayBuffer();
  if (!hashable) return null;
  const hashes = await Promise.all(scripts.map(hashSource));
  const headers = new Headers(rendered.headers);
  for (const name of TRANSFER_HEADERS) headers.delete(name);
  const pageCacheControl = rendered.headers.get("Cache-Control");
  if (pageCacheControl) headers.set(PAGE_CACHE_CONTROL, pageCacheControl);
  headers.set(SCRIPT_HASHES, [...new Set(hashes)].join(" "));
  headers.set(STORED_AT, String(Date.now()));
  headers.set("Cache-Control", `public, max-age=${HTML_CACHE_TTL + STALE_IF_ERROR_S}`);
  return new Response(body, { status: rendered.status, headers });
}

/** A stored page as it leaves: its own headers back, and the hashes its CSP must list. */
export function fromCacheEntry(cached: Response): { response: Response; hashes: string[] } {
  const headers = new Headers(cached.headers);
  const hashes = (headers.get(SCRIPT_HASHES) ?? "").split(" ").filter(Boolean);
  const pageCacheControl = headers.get(PAGE_CACHE_CONTROL);
  for (const name of [SCRIPT_HASHES, PAGE_CACHE_CONTROL, STORED_AT, "Cache-Control", "Age"]) headers.delete(name);
  if (pageCacheControl) headers.set("Cache-Control", pageCacheControl);
  return { response: new Response(cached.body, { status: cached.status, headers }), hashes };
}

/** Whether a stored copy is within its 60 s: only then is it served while D1 answers. */
export function isFresh(cached: Response, now = Date.now()): boolean {
  const storedAt = Number(cached.headers.get(STORED_AT));
  return Number.isFinite(storedAt) && now - storedAt <= HTML_CACHE_TTL * 1000;
}

/**
 * The isolate's own copies of the pages it served last (docs/decisions/120): a hit on one of them
 * needs no Cache API lookup either. Same freshness as the Cache API's copy (judged by its stored
 * time); at most MEMORY_ENTRIES pages of at most MEMORY_ENTRY_BYTES each, the oldest used dropped.
 */
const MEMORY_ENTRIES = 64;
const MEMORY_ENTRY_BYTES = 512 * 1024;
interface MemoryEntry {
  body: ArrayBuffer;
  status: number;
  headers: [string, string][];
}
const memory = new Map<string, MemoryEntry>();

/** A stored copy from the isolate's memory, as a Response like the Cache API's, or undefined. */
export function fromMemory(key: Request): Response | undefined {
  const entry = memory.get(key.url);
  if (!entry) return undefined;
  // Used again: to the end of the map's order (the first is the one to drop).
  memory.delete(key.url);
  memory.set(key.url, entry);
  return new Response(entry.body, { status: entry.status, headers: entry.headers });
}

/** Keeps a stored copy (the one put in the Cache API, or one read from it) in the isolate's memory. */
export async function toMemory(key: Request, stored: Response): Promise<Response> {
  const body = await stored.arrayBuffer();
  const copy = { body, status: stored.status, headers: [...stored.headers] as [string, string][] };
  if (body.byteLength <= MEMORY_ENTRY_BYTES) {
    memory.delete(key.url);
    memory.set(key.url, copy);
    while (memory.size > MEMORY_ENTRIES) memory.delete(memory.keys().next().value!);
  }
  return new Response(body, { status: copy.status, headers: copy.headers });
}
