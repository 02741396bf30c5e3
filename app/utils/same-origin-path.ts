/**
 * The one judge of redirect targets: a same-origin path (with query, and the fragment when asked)
 * or null. The raw value is checked first (no control characters, no backslash, a single leading
 * slash), then the URL parser resolves it (dot-segments, percent-encoded dots) and the path it
 * returns is judged again: `/.//evil.com` normalises to `//evil.com`, which a browser reads as
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
  const path = `${url.pathname}${url.search}${keepHash ? url.hash : ""}`;
  return isPlainPath(path) ? path : null;
}

/**
 * A path a browser resolves against our own origin: one leading slash, not two (`//host`), no
 * backslash (browsers read `/\host` as `//host`), no ASCII control characters or spaces (browsers
 * strip tabs and newlines, so `/\t/host` would become `//host`).
 */
function isPlainPath(value: string): boolean {
  return /^\/(?!\/)/.test(value) && !/[\\\u0000-\u0020\u007F]/.test(value) && !/^\/%(2f|5c)/i.test(value);
}
