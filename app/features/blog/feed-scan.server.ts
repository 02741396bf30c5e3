// A long feed is mostly items we will not show. Building a tree of all of them costs more CPU than
// a Worker has (a 200-item feed with full content is over 1 MB), so a quick scan finds each item
// and its date first, and only the newest ones go to the parser.
import { decodeEntities, isoDate } from "./html-text.server";

const ITEM_TAGS = new Set(["item", "entry"]);
/** In the order the mapper prefers them (RSS pubDate / dc:date, Atom published / updated). */
const DATE_TAGS = ["pubDate", "dc:date", "published", "updated"] as const;
const TAG = /<(\/?)([A-Za-z_][\w.:-]*)/y;

type Span = { start: number; end: number; time: number };

function timeOf(dates: Map<string, string>): number {
  for (const tag of DATE_TAGS) {
    const value = dates.get(tag);
    const iso = value === undefined ? null : isoDate(decodeEntities(value));
    if (iso) return Date.parse(iso);
  }
  return -Infinity;
}

/**
 * The `<item>` / `<entry>` elements of a feed with their dates, skipping CDATA and comments.
 * Null when the document has something the scan does not follow (a DOCTYPE, nested or unclosed
 * items): the full parser then reads the whole document and judges it.
 */
function scanItems(xml: string): Span[] | null {
  const spans: Span[] = [];
  let item: { start: number; tag: string; dates: Map<string, string> } | null = null;
  let at = 0;
  for (;;) {
    const lt = xml.indexOf("<", at);
    if (lt < 0) break;
    if (xml.startsWith("<![CDATA[", lt)) {
      const end = xml.indexOf("]]>", lt + 9);
      if (end < 0) return null;
      at = end + 3;
      continue;
    }
    if (xml.startsWith("<!--", lt)) {
      const end = xml.indexOf("-->", lt + 4);
      if (end < 0) return null;
      at = end + 3;
      continue;
    }
    if (xml.startsWith("<!", lt)) return null; // DOCTYPE and its entities: leave them to the parser
    const gt = xml.indexOf(">", lt);
    if (gt < 0) return null;
    at = gt + 1;
    TAG.lastIndex = lt;
    const match = TAG.exec(xml);
    if (!match) continue; // a processing instruction
    const [, closing, name = ""] = match;
    if (ITEM_TAGS.has(name)) {
      if (!closing) {
        if (item) return null;
        if (xml[gt - 1] === "/") spans.push({ start: lt, end: gt + 1, time: -Infinity });
        else item = { start: lt, tag: name, dates: new Map() };
      } else {
        if (!item || item.tag !== name) return null;
        spans.push({ start: item.start, end: gt + 1, time: timeOf(item.dates) });
        item = null;
      }
    } else if (item && !closing && (DATE_TAGS as readonly string[]).includes(name) && !item.dates.has(name)) {
      const cdata = xml.startsWith("<![CDATA[", gt + 1);
      const from = cdata ? gt + 10 : gt + 1;
      const to = xml.indexOf(cdata ? "]]>" : "<", from);
      if (to < 0) return null;
      item.dates.set(name, xml.slice(from, to));
    }
  }
  return item ? null : spans;
}

/**
 * The feed with only its `limit` newest items (in document order; everything before the first
 * item and after the last is kept: namespaces, the channel's link, closing tags). Returns the
 * document unchanged when it has no more items than that, or when the scan cannot follow it.
 */
export function newestItemsOnly(xml: string, limit: number): string {
  const spans = scanItems(xml);
  const first = spans?.[0];
  const last = spans?.at(-1);
  if (!spans || !first || !last || spans.length <= limit) return xml;
  const keep = spans
    .map((span, index) => ({ span, index }))
    .sort((a, b) => b.span.time - a.span.time || a.index - b.index)
    .slice(0, limit)
    .sort((a, b) => a.index - b.index)
    .map(({ span }) => xml.slice(span.start, span.end));
  return `${xml.slice(0, first.start)}${keep.join("\n")}${xml.slice(last.end)}`;
}
