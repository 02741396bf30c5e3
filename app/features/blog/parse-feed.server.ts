// RSS 2.0 (and 1.0) and Atom feeds to blog posts, by the rules of docs/decisions/007-blog-feed.md.
import { XMLParser } from "fast-xml-parser";
import { newestItemsOnly } from "./feed-scan.server";
import { countWords, decodeEntities, firstImageUrl, htmlToText, httpUrl, isoDate } from "./html-text.server";
import { DEFAULT_AUTHOR, type BlogPost } from "./post";

/** 10 posts, excerpts of 200 characters, reading time at 200 words per minute. */
export const MAX_POSTS = 10;
const EXCERPT_LENGTH = 200;
const WORDS_PER_MINUTE = 200;

/** The document is not well-formed XML, or not a feed. */
export class FeedFormatError extends Error {
  override name = "FeedFormatError";
}

// Entities of a DOCTYPE are bounded (billion laughs, oversized entities, external entities all
// fail the parse); HTML character references are decoded by us, after tags are stripped.
const PARSER_OPTIONS = {
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  htmlEntities: false,
  processEntities: {
    enabled: true,
    maxEntityCount: 20,
    maxEntitySize: 1_000,
    maxTotalExpansions: 1_000,
    maxExpandedLength: 100_000,
  },
} as const;

type XmlNode = Record<string, unknown>;

/** One element or many: the parser returns an object for a single element, an array for more. */
function list(node: unknown): unknown[] {
  return node == null ? [] : Array.isArray(node) ? node : [node];
}

function isNode(node: unknown): node is XmlNode {
  return typeof node === "object" && node !== null && !Array.isArray(node);
}

/** The text of an element: its own text, or (XHTML content) all its descendants' text. */
function text(node: unknown): string {
  if (node == null) return "";
  if (typeof node === "string") return node;
  if (typeof node === "number" || typeof node === "boolean") return String(node);
  if (Array.isArray(node)) return text(node[0]);
  if (isNode(node)) {
    return Object.entries(node)
      .filter(([key]) => !key.startsWith("@_"))
      .map(([key, value]) => (key === "#text" ? text(value) : list(value).map(text).join(" ")))
      .join(" ")
      .trim();
  }
  return "";
}

function attr(node: unknown, name: string): string {
  return isNode(node) ? text(node[`@_${name}`]) : "";
}

/** What an RSS item or Atom entry says, before mapping. */
type RawItem = {
  guid: string;
  link: string;
  title: string;
  description: string;
  content: string;
  date: string;
  author: string;
  /** Candidate cover images from enclosures and media elements, in document order. */
  images: string[];
};

const IMAGE_EXTENSION = /\.(avif|gif|jpe?g|png|webp|svg)(?:[?#]|$)/i;

function isImage(url: string, type: string, medium = ""): boolean {
  if (medium) return medium === "image";
  if (type) return type.toLowerCase().startsWith("image/");
  return IMAGE_EXTENSION.test(url);
}

/** Images of `<enclosure>`, `<media:content>`, `<media:group>` and `<media:thumbnail>`. */
function mediaImages(item: XmlNode): string[] {
  const images: string[] = [];
  for (const enclosure of list(item.enclosure)) {
    const url = attr(enclosure, "url");
    if (url && isImage(url, attr(enclosure, "type"))) images.push(url);
  }
  const media = [
    ...list(item["media:content"]),
    ...list(item["media:group"]).flatMap((g) => (isNode(g) ? list(g["media:content"]) : [])),
  ];
  for (const content of media) {
    const url = attr(content, "url");
    if (url && isImage(url, attr(content, "type"), attr(content, "medium"))) images.push(url);
  }
  for (const thumbnail of list(item["media:thumbnail"])) {
    const url = attr(thumbnail, "url");
    if (url) images.push(url);
  }
  return images;
}

/** RSS `<author>` is "email (Name)"; the name is what a reader wants. */
function rssAuthorName(value: string): string {
  const name = /\(([^)]+)\)\s*$/.exec(value)?.[1];
  if (name) return name;
  return value.includes("@") ? "" : value;
}

function rssItem(item: XmlNode): RawItem {
  return {
    guid: text(item.guid),
    link: text(item.link),
    title: text(item.title),
    description: text(item.description),
    content: text(item["content:encoded"]),
    date: text(item.pubDate) || text(item["dc:date"]),
    author: text(item["dc:creator"]) || rssAuthorName(text(item.author)),
    images: mediaImages(item),
  };
}

function atomLink(links: unknown, rel: string): string {
  const link = list(links).find((l) => (attr(l, "rel") || "alternate") === rel);
  return link ? attr(link, "href") : "";
}

function atomEntry(entry: XmlNode, feedAuthor: string): RawItem {
  const enclosures = list(entry.link)
    .filter((l) => attr(l, "rel") === "enclosure" && isImage(attr(l, "href"), attr(l, "type")))
    .map((l) => attr(l, "href"));
  return {
    guid: text(entry.id),
    link: atomLink(entry.link, "alternate"),
    title: text(entry.title),
    description: text(entry.summary),
    content: text(entry.content),
    date: text(entry.published) || text(entry.updated),
    author: text(isNode(list(entry.author)[0]) ? (list(entry.author)[0] as XmlNode).name : "") || feedAuthor,
    images: [...enclosures, ...mediaImages(entry)],
  };
}

/** The feed's items and the URL their relative links resolve against. */
function feedItems(doc: XmlNode, feedUrl: string): { items: RawItem[]; base: string } {
  const rss = isNode(doc.rss) ? doc.rss : null;
  const rdf = isNode(doc["rdf:RDF"]) ? doc["rdf:RDF"] : null;
  if (rss || rdf) {
    const found = list((rss ?? rdf)!.channel)[0];
    if (found === undefined) throw new FeedFormatError("RSS without a channel");
    // An empty <channel></channel> parses as "".
    const channel: XmlNode = isNode(found) ? found : {};
    const base = httpUrl(text(channel.link), feedUrl) ?? feedUrl;
    // RSS 2.0 nests items in the channel; RSS 1.0 puts them beside it.
    const items = list(rss ? channel.item : rdf!.item)
      .filter(isNode)
      .map(rssItem);
    return { items, base };
  }
  if (isNode(doc.feed)) {
    const feed = doc.feed;
    const base =
      httpUrl(atomLink(feed.link, "alternate"), feedUrl) ?? httpUrl(attr(feed, "xml:base"), feedUrl) ?? feedUrl;
    const feedAuthor = text(isNode(list(feed.author)[0]) ? (list(feed.author)[0] as XmlNode).name : "");
    return {
      items: list(feed.entry)
        .filter(isNode)
        .map((e) => atomEntry(e, feedAuthor)),
      base,
    };
  }
  throw new FeedFormatError("neither RSS nor Atom");
}

/** First 200 characters (code points) plus an ellipsis when the text is longer. */
export function excerptOf(text: string): string {
  const chars = Array.from(text);
  return chars.length > EXCERPT_LENGTH ? `${chars.slice(0, EXCERPT_LENGTH).join("").trimEnd()}...` : text;
}

function toPost(raw: RawItem, publishedAt: string | null, base: string): BlogPost {
  const contentHtml = raw.content || raw.description;
  const contentText = htmlToText(contentHtml);
  const url = httpUrl(raw.link, base) ?? (/^https?:/i.test(raw.guid) ? httpUrl(raw.guid) : null);
  const imageBase = url ?? base;
  const coverImage =
    firstImageUrl(contentHtml, imageBase) ??
    (raw.content ? firstImageUrl(raw.description, imageBase) : null) ??
    raw.images.map((src) => httpUrl(decodeEntities(src), imageBase)).find(Boolean) ??
    null;
  return {
    id: raw.guid.trim() || url || htmlToText(raw.title),
    title: htmlToText(raw.title) || "Untitled",
    excerpt: excerptOf(raw.description ? htmlToText(raw.description) : contentText),
    coverImage,
    publishedAt,
    author: htmlToText(raw.author) || DEFAULT_AUTHOR,
    url,
    readingTime: Math.max(1, Math.ceil(countWords(contentText) / WORDS_PER_MINUTE)),
  };
}

/**
 * The newest `limit` posts of an RSS or Atom document. Throws FeedFormatError when the text is
 * not well-formed XML (a truncated or broken feed) or not a feed.
 */
export function parseFeed(
  xml: string,
  { feedUrl, limit = MAX_POSTS }: { feedUrl: string; limit?: number },
): BlogPost[] {
  let doc: unknown;
  try {
    // `true` validates first: a broken document is rejected, never half-read.
    doc = new XMLParser(PARSER_OPTIONS).parse(newestItemsOnly(xml, limit), true);
  } catch (error) {
    throw new FeedFormatError(error instanceof Error ? error.message : String(error));
  }
  if (!isNode(doc)) throw new FeedFormatError("empty document");
  const { items, base } = feedItems(doc, feedUrl);
  // Dates first (cheap), full mapping only for the posts that are kept.
  const dated = items.map((raw, index) => {
    const publishedAt = isoDate(raw.date);
    return { raw, index, publishedAt, time: publishedAt ? Date.parse(publishedAt) : -Infinity };
  });
  dated.sort((a, b) => b.time - a.time || a.index - b.index);
  const posts = dated.slice(0, limit).map(({ raw, publishedAt }) => toPost(raw, publishedAt, base));
  // Ids key the cards: a feed that repeats one must still give distinct keys.
  const seen = new Map<string, number>();
  return posts.map((post, i) => {
    const id = post.id || `post-${i + 1}`;
    const n = seen.get(id) ?? 0;
    seen.set(id, n + 1);
    return n ? { ...post, id: `${id}#${n + 1}` } : { ...post, id };
  });
}
