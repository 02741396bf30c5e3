/**
 * Whether a venture's site lets us frame it. A browser cannot tell a page that refused framing
 * from one that loaded (both fire `load`), so the server asks the site itself: its X-Frame-Options
 * and CSP frame-ancestors headers, or no answer at all, decide. Results are kept for 10 minutes
 * per isolate.
 */
export type EmbedCheck = { embeddable: boolean; reason?: "refused" | "unreachable" };

const TTL_MS = 10 * 60 * 1000;
const TIMEOUT_MS = 3000;
const cache = new Map<string, { at: number; result: EmbedCheck }>();

/** Reads the framing headers of a response for a page at `ourOrigin`. */
export function framingAllowed(headers: Headers, ourOrigin: string): boolean {
  const xfo = headers.get("x-frame-options")?.trim().toLowerCase();
  if (xfo === "deny" || xfo === "sameorigin") return false;
  const csp = headers.get("content-security-policy") ?? "";
  const directive = csp
    .split(";")
    .map((d) => d.trim())
    .find((d) => d.toLowerCase().startsWith("frame-ancestors"));
  if (!directive) return true;
  const sources = directive.split(/\s+/).slice(1);
  return sources.some(
    (s) => s === "*" || s === ourOrigin || (s.startsWith("https://*.") && ourOrigin.endsWith(s.slice(9))),
  );
}

export async function checkEmbeddable(
  url: string,
  ourOrigin: string,
  fetcher: typeof fetch = fetch,
): Promise<EmbedCheck> {
  const hit = cache.get(url);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.result;
  let result: EmbedCheck;
  try {
    const res = await fetcher(url, { redirect: "follow", signal: AbortSignal.timeout(TIMEOUT_MS) });
    await res.body?.cancel();
    result = !res.ok
      ? { embeddable: false, reason: "unreachable" }
      : framingAllowed(res.headers, ourOrigin)
        ? { embeddable: true }
        : { embeddable: false, reason: "refused" };
  } catch {
    result = { embeddable: false, reason: "unreachable" };
  }
  cache.set(url, { at: Date.now(), result });
  return result;
}
