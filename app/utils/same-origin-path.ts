/**
 * The one judge of redirect targets: a same-origin path (with query, and the fragment when asked)
 * or null. The raw value is checked first (no control characters, no backslash, a single leading
 * slash), then the URL parser resolves it (dot-segments, percent-encoded dots) and its path is
 * normalised as the router will read it: percent-decoded until it no longer changes (so
 * `/%2561pi/logout` is judged, and returned, as `/api/logout`), its dot segments resolved again.
 * The result is judged again: `/.//evil.com` normalises to `//evil.com`, which a browser reads as
 * another host, so it is refused rather than returned.
 */
export function sameOriginPath(
  value: string | null | undefined,
  origin: string,
  { keepHash = true }: { keepHash?: boolean } = {},
): string | null {
  if (typeof value !== "string" || !isPlainPath(value)) return null;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  const pathname = decodedPath(url.pathname);
  if (pathname === null) return null;
  const normal = new URL(pathname, origin);
  if (normal.origin !== origin) return null;
  const path = `${normal.pathname}${url.search}${keepHash ? url.hash : ""}`;
  return isPlainPath(path) ? path : null;
}

/** Percent-decoding rounds before a path counts as crafted: real links need one. */
const MAX_DECODES = 3;

/**
 * A path as the router reads it, each segment percent-decoded until it no longer changes (null
 * when it still does after MAX_DECODES). What would change the path's shape when parsed again is
 * encoded back (a slash or backslash inside a segment, `?`, `#`, `%`, control characters), as
 * the router itself keeps an encoded slash a segment's own; everything else is the URL parser's
 * to encode, and its dot segments to resolve.
 */
function decodedPath(path: string): string | null {
  const segments = path.split("/").map((segment) => {
    let current = segment;
    for (let i = 0; i <= MAX_DECODES; i++) {
      let next: string;
      try {
        next = decodeURIComponent(current);
      } catch {
        next = current; // a lone `%`: nothing more to decode
      }
      if (next === current) return current.replace(/[/\\?#%\u0000-\u001F\u007F]/g, encodeURIComponent);
      current = next;
    }
    return null;
  });
  return segments.includes(null) ? null : segments.join("/");
}

/**
 * A path a browser resolves against our own origin: one leading slash, not two (`//host`), no
 * backslash (browsers read `/\host` as `//host`), no ASCII control characters or spaces (browsers
 * strip tabs and newlines, so `/\t/host` would become `//host`).
 */
function isPlainPath(value: string): boolean {
  return /^\/(?!\/)/.test(value) && !/[\\\u0000-\u0020\u007F]/.test(value) && !/^\/%(2f|5c)/i.test(value);
}
