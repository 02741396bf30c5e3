/**
 * The one reader of a `Cookie` header (or `document.cookie`). When a name appears twice, the
 * first one wins, as in the cookie parser of Remix's sessions: every reader of a cookie (the page
 * render, the HTML cache key) must agree on which value it sees.
 */
export function parseCookieHeader(header: string | null | undefined): ReadonlyMap<string, string> {
  // One request reads its header several times (the cache key, the session, the flash, the
  // sidebar…): the last header's jar is kept, a tenth of a member's render in the profile before.
  if (header === last.header) return last.jar;
  const jar = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const i = part.indexOf("=");
    const name = (i < 0 ? part : part.slice(0, i)).trim();
    if (!name || jar.has(name)) continue;
    jar.set(name, i < 0 ? "" : part.slice(i + 1).trim());
  }
  last = { header, jar };
  return jar;
}

let last: { header: string | null | undefined; jar: ReadonlyMap<string, string> } = {
  header: undefined,
  jar: new Map(),
};
