/**
 * Remix's route-discovery endpoint (`/__manifest?p=/a/b&p=…`, from v3_lazyRouteDiscovery) matches
 * every prefix of every path it is asked for against the route table. Remix 2 caps only the URL's
 * length (7,680 characters), so one request of a few kilobytes asking for a path thousands of
 * segments deep costs seconds of CPU (GHSA-chx6-hx7r-mcp5, fixed only in React Router 7.18;
 * docs/decisions/058-data-protocol.md). The browser asks for the paths of the links a page
 * renders, whose depth and number our routes bound, so anything far beyond them is refused here,
 * before Remix matches anything.
 */
const MANIFEST_PATH = "/__manifest";
/** Segments of one path: our deepest route has 3 (`/admin/leads/:id`, `/newsletter/confirm/:token`). */
export const MAX_DISCOVERY_DEPTH = 8;
/** Prefixes of all paths of one request: the sitemap page, our most linked, asks for about 60. */
export const MAX_DISCOVERY_PREFIXES = 256;

/** A 400 for a discovery request no page of ours would send, or null to let Remix answer. */
export function manifestRefusal(request: Request, url = new URL(request.url)): Response | null {
  if (url.pathname !== MANIFEST_PATH) return null;
  const prefixes = new Set<string>();
  for (const path of url.searchParams.getAll("p")) {
    const segments = path.replace(/^\//, "").split("/");
    if (segments.length > MAX_DISCOVERY_DEPTH) return refuse();
    segments.forEach((_, i) => prefixes.add(segments.slice(0, i + 1).join("/")));
    if (prefixes.size > MAX_DISCOVERY_PREFIXES) return refuse();
  }
  return null;
}

const refuse = () => new Response("Bad Request", { status: 400, headers: { "Cache-Control": "no-store" } });
