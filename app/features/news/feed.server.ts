/**
 * The Atom 1.0 feed of published news (RFC 4287; docs/decisions/074-news-and-feeds.md): the
 * newest 20 items, the group's or one venture's, each with its link, summary and body as escaped
 * HTML. Written by hand with every text escaped (`escapeHtml` covers XML's five characters), and
 * checked by parsing it in the tests. Answers conditional GETs (ETag, Last-Modified) with 304.
 */
import { SITE } from "~/content/site";
import { feedPath } from "~/features/news/feed";
import { renderMarkdown } from "~/features/news/markdown.server";
import { newsPath } from "~/features/news/news-form";
import { newsListPath } from "~/features/news/news-pages";
import { sha256Hex } from "~/utils/crypto.server";
import { escapeHtml } from "~/utils/escape-html";

/** Text as XML: escaped, and without the control characters XML 1.0 forbids even escaped. */
// eslint-disable-next-line no-control-regex
const x = (text: string) => escapeHtml(text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, ""));

/** Items a feed carries. */
export const FEED_SIZE = 20;

export interface FeedEntry {
  slug: string;
  title: string;
  summary: string;
  body: string;
  venture: string | null;
  publishedAt: number;
  updatedAt: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** When the news began (migrations/0017): an empty feed's `updated` before any news changed. */
const FEED_EPOCH = Date.UTC(2026, 10, 1);

/**
 * An entry's HTML with its links absolute: a feed reader resolves a body's `/documents?…` against
 * no page of ours. The renderer writes every link as `<a href="…"` (markdown.server.ts), and text
 * comes out escaped, so this pattern meets links only: a path gets the site's origin, a fragment
 * the entry's address.
 */
export function absoluteLinks(html: string, base: string, entryUrl: string): string {
  return html.replace(/<a href="(\/(?!\/)|#)/g, (_, start: string) =>
    start === "#" ? `<a href="${entryUrl}#` : `<a href="${base}/`,
  );
}

/**
 * The feed's XML and the time of its newest change (null for an empty feed). An empty feed's
 * `updated` is `lastChange`, the last change to the news there is (never 1970).
 */
export function atomFeed(
  siteUrl: string,
  entries: readonly FeedEntry[],
  venture: { id: string; name: string } | null,
  lastChange: number | null = null,
): { xml: string; updated: number | null } {
  const base = siteUrl.replace(/\/$/, "");
  const updated = entries.length ? Math.max(...entries.map((e) => e.updatedAt)) : null;
  const self = `${base}${feedPath(venture?.id)}`;
  const title = venture ? `${venture.name} news` : `${SITE.name} news`;
  const items = entries.map((e) => {
    const url = `${base}${newsPath(e.slug)}`;
    return `  <entry>
    <id>${x(url)}</id>
    <title type="text">${x(e.title)}</title>
    <link rel="alternate" type="text/html" href="${x(url)}"/>
    <published>${iso(e.publishedAt)}</published>
    <updated>${iso(e.updatedAt)}</updated>
    <summary type="text">${x(e.summary)}</summary>
    <content type="html">${x(absoluteLinks(renderMarkdown(e.body), base, url))}</content>
  </entry>`;
  });
  const xml = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>${x(self)}</id>
  <title type="text">${x(title)}</title>
  <updated>${iso(updated ?? lastChange ?? FEED_EPOCH)}</updated>
  <author><name>${x(SITE.name)}</name></author>
  <link rel="self" type="application/atom+xml" href="${x(self)}"/>
  <link rel="alternate" type="text/html" href="${x(`${base}${newsListPath(venture?.id)}`)}"/>
${items.join("\n")}
</feed>
`;
  return { xml, updated };
}

/**
 * The feed as a response: 304 when the client's copy is current (its ETag, or else its date). The
 * calendar files answer the same way, with their own type (`headers`).
 */
export async function feedResponse(
  request: Request,
  xml: string,
  updated: number | null,
  own: Record<string, string> = {},
): Promise<Response> {
  const etag = `"${(await sha256Hex(xml)).slice(0, 32)}"`;
  const headers = new Headers({
    "Content-Type": "application/atom+xml; charset=utf-8",
    ...own,
    // Readers poll: each poll asks again, and a current copy costs a 304.
    "Cache-Control": "public, max-age=0, must-revalidate",
    ETag: etag,
  });
  if (updated !== null) headers.set("Last-Modified", new Date(updated).toUTCString());
  const ifNoneMatch = request.headers.get("If-None-Match");
  const ifModifiedSince = Date.parse(request.headers.get("If-Modified-Since") ?? "");
  const current = ifNoneMatch
    ? ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag || tag.trim() === "*")
    : updated !== null && Number.isFinite(ifModifiedSince) && Math.floor(updated / 1000) * 1000 <= ifModifiedSince;
  if (current) return new Response(null, { status: 304, headers });
  return new Response(xml, { status: 200, headers });
}
