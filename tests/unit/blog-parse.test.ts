// The feed parser and mapper (docs/decisions/007-blog-feed.md) against fixtures of every shape real feeds have,
// and hostile ones, inside workerd.
import { describe, expect, it } from "vitest";
import { decodeEntities, htmlToText, httpUrl, isoDate } from "~/features/blog/html-text.server";
import { newestItemsOnly } from "~/features/blog/feed-scan.server";
import { excerptOf, FeedFormatError, MAX_POSTS, parseFeed } from "~/features/blog/parse-feed.server";
import { DEFAULT_AUTHOR } from "~/features/blog/post";
import atom from "../fixtures/feeds/atom.xml?raw";
import billionLaughs from "../fixtures/feeds/billion-laughs.xml?raw";
import broken from "../fixtures/feeds/broken.xml?raw";
import hostile from "../fixtures/feeds/hostile.xml?raw";
import notAFeed from "../fixtures/feeds/not-a-feed.html?raw";
import rssBasic from "../fixtures/feeds/rss-basic.xml?raw";
import missingFields from "../fixtures/feeds/rss-missing-fields.xml?raw";
import singleItem from "../fixtures/feeds/rss-single-item.xml?raw";
import { expectDefined } from "../fixtures/expect-defined";

const feedUrl = "https://feeds.example.com/feed.xml";
const parse = (xml: string) => parseFeed(xml, { feedUrl });

describe("RSS 2.0", () => {
  const posts = parse(rssBasic);

  it("keeps the 10 newest of 12 items, newest first", () => {
    expect(posts).toHaveLength(MAX_POSTS);
    const dates = posts.map((p) => p.publishedAt!);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(posts.map((p) => p.id)).not.toContain("issue-6"); // 2 March, the oldest
    expect(posts.map((p) => p.id)).not.toContain("issue-9"); // 4 March
  });

  it("maps id, title, url, author and an RFC 822 date", () => {
    expect(posts[0]).toMatchObject({
      id: "issue-1",
      title: "Fintech & Food: what we learned",
      url: "https://newsletter.example.com/p/issue-1",
      author: "Jane Writer",
      publishedAt: "2025-03-14T09:30:00.000Z",
    });
  });

  it("takes the excerpt from the description as text (CDATA, tags stripped, entities decoded)", () => {
    expect(expectDefined(posts[0]).excerpt).toBe(
      "Fintech & food: a look at two of our ventures \u2014 and what they taught us.",
    );
    expect(expectDefined(posts[1]).excerpt).toBe("Escaped HTML description with a & sign.");
  });

  it("decodes HTML entities in titles", () => {
    expect(expectDefined(posts[1]).title).toBe('Caf\u00e9 culture & "impact"');
  });

  it("cuts excerpts at 200 characters plus an ellipsis", () => {
    const long = posts.find((p) => p.id === "issue-3")!;
    expect(long.excerpt).toBe(`${"Twenty-character txt".repeat(10)}...`);
    expect(excerptOf("short")).toBe("short");
    expect(excerptOf("\u{1F600}".repeat(201))).toBe(`${"\u{1F600}".repeat(200)}...`);
  });

  it("reads content:encoded for the reading time (200 wpm, rounded up) and the cover image", () => {
    // 454 words of content.
    expect(expectDefined(posts[0]).readingTime).toBe(3);
    expect(expectDefined(posts[0]).coverImage).toBe("https://cdn.example.com/covers/one.jpg");
    expect(expectDefined(posts[1]).readingTime).toBe(1);
    expect(expectDefined(posts[1]).coverImage).toBeNull();
  });

  it("handles a feed with a single item (an object, not an array)", () => {
    const [post, ...rest] = parse(singleItem);
    expect(rest).toEqual([]);
    expect(post).toEqual({
      id: "https://newsletter.example.com/p/only",
      title: "The only post",
      excerpt: "Just one.",
      coverImage: null,
      publishedAt: "2025-06-10T04:00:00.000Z",
      author: "Sam Editor",
      url: "https://newsletter.example.com/p/only",
      readingTime: 1,
    });
  });

  it("handles missing guid, date, description and title; relative links; enclosure and media images", () => {
    const posts = parse(missingFields);
    expect(posts.map((p) => p.title)).toEqual([
      "No guid, relative link, enclosure image",
      "No description",
      "No date, media image",
      "Untitled",
    ]);
    const [relative, bare, undated, untitled] = posts;
    expect(expectDefined(relative).id).toBe("https://blog.example.org/news/relative-post");
    expect(expectDefined(relative).url).toBe("https://blog.example.org/news/relative-post");
    expect(expectDefined(relative).coverImage).toBe("https://blog.example.org/images/enclosure.png");
    expect(expectDefined(relative).publishedAt).toBe("2025-04-02T08:00:00.000Z");
    expect(expectDefined(relative).author).toBe(DEFAULT_AUTHOR);
    expect(expectDefined(bare).excerpt).toBe("");
    expect(expectDefined(bare).coverImage).toBeNull(); // an audio enclosure is no cover
    expect(expectDefined(bare).publishedAt).toBe("2025-01-01T17:00:00.000Z"); // EST
    expect(expectDefined(undated).publishedAt).toBeNull();
    expect(expectDefined(undated).coverImage).toBe("https://cdn.example.org/media.jpg");
    expect(expectDefined(untitled).publishedAt).toBeNull(); // "not a date"
    expect(expectDefined(untitled).id).toBe("https://blog.example.org/news/untitled");
  });
});

describe("long feeds: only the newest items are parsed", () => {
  /** `n` items whose dates are shuffled; item i is dated 2025-01-01 plus (i * 7 mod n) days. */
  function longFeed(n: number, extra: (i: number) => string = () => "") {
    const items = Array.from({ length: n }, (_, i) => {
      const date = new Date(Date.UTC(2025, 0, 1) + ((i * 7) % n) * 86_400_000).toUTCString();
      return `<item><title>Post ${i}</title><link>https://x.example/${i}</link><pubDate>${date}</pubDate>${extra(i)}</item>`;
    });
    return `<?xml version="1.0"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>Long</title><link>https://x.example/</link>${items.join("\n")}<!-- end --></channel></rss>`;
  }

  it("keeps the same 10 posts as reading every item", () => {
    const xml = longFeed(200, (i) => `<content:encoded><![CDATA[<p>Body ${i}</p>]]></content:encoded>`);
    const posts = parse(xml);
    expect(posts).toHaveLength(10);
    expect(posts).toEqual(parseFeed(xml, { feedUrl, limit: 1000 }).slice(0, 10));
    expect(expectDefined(posts[0]).publishedAt).toBe(new Date(Date.UTC(2025, 0, 1) + 199 * 86_400_000).toISOString());
  });

  it("is not fooled by item tags inside CDATA or comments", () => {
    const xml = longFeed(30, (i) =>
      i === 3
        ? "<description><![CDATA[An <item><pubDate>Fri, 01 Jan 2100 00:00:00 GMT</pubDate></item> in text]]></description><!-- <item> -->"
        : "",
    );
    expect(parse(xml)).toEqual(parseFeed(xml, { feedUrl, limit: 1000 }).slice(0, 10));
  });

  it("reads dates given as CDATA, and ranks undated items last", () => {
    const xml = longFeed(12).replace("<pubDate>", "<pubDate><![CDATA[").replace("</pubDate>", "]]></pubDate>");
    expect(parse(xml)).toEqual(parseFeed(xml, { feedUrl, limit: 1000 }).slice(0, 10));
    const undated = longFeed(12).replace(/<pubDate>[^<]*<\/pubDate>/, "");
    expect(parse(undated).map((p) => p.title)).not.toContain("Post 0");
  });

  it("hands the parser only the newest items, or the whole document when it cannot follow it", () => {
    const xml = longFeed(200);
    const reduced = newestItemsOnly(xml, 10);
    expect(reduced.match(/<item>/g)).toHaveLength(10);
    expect(reduced.startsWith(xml.slice(0, xml.indexOf("<item>")))).toBe(true);
    expect(reduced.endsWith("<!-- end --></channel></rss>")).toBe(true);
    expect(newestItemsOnly(longFeed(10), 10)).toBe(longFeed(10));
    const withDoctype = xml.replace("<rss", '<!DOCTYPE rss [<!ENTITY x "y">]><rss');
    expect(newestItemsOnly(withDoctype, 10)).toBe(withDoctype);
    expect(newestItemsOnly(billionLaughs, 0)).toBe(billionLaughs);
  });

  it("still rejects a long feed that is truncated", () => {
    const xml = longFeed(50);
    expect(() => parse(xml.slice(0, xml.length / 2))).toThrow(FeedFormatError);
  });
});

describe("Atom", () => {
  const posts = parse(atom);

  it("maps entries: id, alternate link, published or updated, summary, html and xhtml content", () => {
    expect(posts.map((p) => p.id)).toEqual([
      "tag:atom.example.com,2025:second",
      "urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a",
    ]);
    const [second, first] = posts;
    expect(first).toMatchObject({
      title: "Atom HTML title & more",
      url: "https://atom.example.com/posts/first",
      publishedAt: "2025-05-01T10:00:00.000Z",
      excerpt: "Summary of the first entry.",
      coverImage: "https://atom.example.com/img/first.webp",
      author: "Ada Author",
    });
    expect(second).toMatchObject({
      title: "Second, updated only",
      url: "https://atom.example.com/posts/second",
      publishedAt: "2025-05-02T09:00:00.000Z",
      excerpt: "XHTML content for the second entry.",
      coverImage: "https://atom.example.com/img/second.jpg",
      author: "AFX Editorial", // the feed's author
    });
  });
});

describe("hostile feeds", () => {
  it("keeps only text: no tags, no script bodies, no javascript:/data: links or images", () => {
    const posts = parse(hostile);
    // Everything the page shows or links to (the id is only a React key).
    const json = JSON.stringify(posts.map(({ id: _id, ...shown }) => shown));
    expect(json).not.toMatch(/<|javascript:|data:|alert\(|onerror|onclick/i);
    expect(expectDefined(posts[0]).title).toBe("Click me");
    expect(expectDefined(posts[0]).excerpt).toBe("Harmless text");
    expect(expectDefined(posts[0]).url).toBeNull();
    expect(expectDefined(posts[1]).url).toBeNull();
    expect(expectDefined(posts[1]).coverImage).toBeNull();
    for (const post of posts) {
      if (post.coverImage) expect(post.coverImage).toMatch(/^https?:\/\//);
    }
  });

  it("does not expand a billion-laughs entity", () => {
    const [post] = parse(billionLaughs);
    expect(expectDefined(post).title.length).toBeLessThan(100);
    expect(expectDefined(post).excerpt.length).toBeLessThan(100);
  });

  it("rejects oversized and external entities", () => {
    const big = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY big "${"x".repeat(50_000)}">]><rss><channel><item><title>&big;</title></item></channel></rss>`;
    expect(() => parse(big)).toThrow(FeedFormatError);
    const external = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY ext SYSTEM "file:///etc/passwd">]><rss><channel><item><title>&ext;</title></item></channel></rss>`;
    expect(() => parse(external)).toThrow(FeedFormatError);
  });

  it("rejects broken XML and documents that are not feeds", () => {
    expect(() => parse(broken)).toThrow(FeedFormatError);
    expect(() => parse(notAFeed)).toThrow(FeedFormatError);
    expect(() => parse("")).toThrow(FeedFormatError);
    expect(parse("<rss><channel></channel></rss>")).toEqual([]);
  });
});

describe("text helpers", () => {
  it("decodes named and numeric entities once, leaving unknown ones", () => {
    expect(decodeEntities("&amp;lt; &#233; &#xE9; &hellip; &unknown; &#0; &#xD800;")).toBe(
      "&lt; \u00e9 \u00e9 \u2026 &unknown; \ufffd \ufffd",
    );
  });

  it("strips comments, scripts, styles and tags", () => {
    expect(htmlToText("<!-- c --><p>a<br>b</p><script>x()</script><style>p{}</style>&nbsp;c")).toBe("a b c");
  });

  it("keeps http(s) URLs only, resolving relative ones", () => {
    expect(httpUrl("/a", "https://x.example/b/")).toBe("https://x.example/a");
    expect(httpUrl("javascript:alert(1)", "https://x.example/")).toBeNull();
    expect(httpUrl(" JAVASCRIPT:alert(1)")).toBeNull();
    expect(httpUrl("mailto:a@b.c")).toBeNull();
    expect(httpUrl("relative")).toBeNull();
    expect(httpUrl("http://x.example/")).toBe("http://x.example/");
  });

  it("reads RFC 822 and ISO 8601 dates", () => {
    expect(isoDate("Tue, 10 Jun 2003 04:00:00 GMT")).toBe("2003-06-10T04:00:00.000Z");
    expect(isoDate("Mon, 10 Jun 2003 04:00:00 +0200")).toBe("2003-06-10T02:00:00.000Z"); // wrong day name
    expect(isoDate("2025-05-01T12:00:00+02:00")).toBe("2025-05-01T10:00:00.000Z");
    expect(isoDate("2025-05-01")).toBe("2025-05-01T00:00:00.000Z");
    expect(isoDate("")).toBeNull();
    expect(isoDate("yesterday")).toBeNull();
  });
});
