// A local RSS 2.0 feed for the browser tests and the benchmarks (and offline demos:
// `node scripts/lib/sample-feed.mjs 9000` then `BLOG_FEED_URL=http://127.0.0.1:9000/feed.xml npm start`).
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";

export const SAMPLE_TITLES = [
  "How our fintech venture reached its first thousand users",
  "Food tech & the economics of the last mile",
  "Building government services people actually enjoy",
  "What pet care taught us about subscription retention",
  "Independent journalism in the age of algorithms",
  "Logistics lessons from a year of seed-strapping",
  "Why we fund ventures with impact at their core",
  "Inside the AFX portfolio review",
  "Family support, one app at a time",
  "Notes from our investor day",
];

const escapeXml = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * An RSS document of `items` posts, newest first from 2025-06-01, each with HTML content of
 * 300–1,200 words. With `imageUrl`, every other post has it as its first `<img>`.
 * @param {{ items?: number, link?: string, imageUrl?: string }} [options]
 */
export function sampleFeedXml({ items = 12, link = "https://newsletter.example.com", imageUrl } = {}) {
  const entries = [];
  for (let i = 0; i < items; i++) {
    const title = `${SAMPLE_TITLES[i % SAMPLE_TITLES.length]}${i >= SAMPLE_TITLES.length ? ` (part ${Math.floor(i / SAMPLE_TITLES.length) + 1})` : ""}`;
    const date = new Date(Date.UTC(2025, 5, 1, 9) - i * 86_400_000).toUTCString();
    const words = 300 + ((i * 137) % 900);
    const body = Array.from({ length: words }, (_, w) => (w % 12 === 0 ? "venture" : "growth")).join(" ");
    const image = imageUrl && i % 2 === 0 ? `<img src="${imageUrl}" alt="">` : "";
    const slug = `post-${i + 1}`;
    entries.push(`    <item>
      <title>${escapeXml(title)}</title>
      <link>${link}/p/${slug}</link>
      <guid isPermaLink="false">${slug}</guid>
      <pubDate>${date}</pubDate>
      <dc:creator>AFX Editorial</dc:creator>
      <description><![CDATA[<p>${escapeXml(title)}: what we tried, what worked &amp; what we would do differently. ${body.slice(0, 400)}</p>]]></description>
      <content:encoded><![CDATA[${image}<p>${body}</p>]]></content:encoded>
    </item>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel>
    <title>AFX Insights</title>
    <link>${link}</link>
    <description>Sample newsletter feed for local runs</description>
${entries.join("\n")}
  </channel>
</rss>
`;
}

/**
 * A feed server on 127.0.0.1. `respond(request)` returns (or resolves to) { status?, body,
 * type? }; by default it answers the sample feed.
 * @typedef {{ status?: number, body?: string, type?: string }} FeedAnswer
 * @param {{ port?: number, respond?: (req: import("node:http").IncomingMessage) => FeedAnswer | Promise<FeedAnswer> }} [options]
 */
export async function startFeedServer({ port = 0, respond } = {}) {
  const answer = respond ?? (() => ({ body: sampleFeedXml() }));
  const server = createServer(async (req, res) => {
    server.requests += 1;
    try {
      const { status = 200, body = "", type = "application/rss+xml; charset=utf-8" } = await answer(req);
      res.writeHead(status, { "Content-Type": type });
      res.end(body);
    } catch {
      res.destroy();
    }
  });
  server.requests = 0;
  await new Promise((resolveListen) => server.listen(port, "127.0.0.1", resolveListen));
  const { port: actual } = server.address();
  return {
    url: `http://127.0.0.1:${actual}/feed.xml`,
    get requests() {
      return server.requests;
    },
    stop: () =>
      new Promise((resolveStop) => {
        server.closeAllConnections?.();
        server.close(() => resolveStop());
      }),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const feed = await startFeedServer({ port: Number(process.argv[2] || 9000) });
  console.log(`Sample feed at ${feed.url}`);
}
