// What the page benchmarks need around the worker: seeded leads, a feed to cache, an admin session.
// Each part is used when the project has it.
import { sampleFeedXml, startFeedServer } from "../../scripts/lib/sample-feed.mjs";
import { seedLeads } from "../../scripts/seed.mjs";

export async function benchFixtures({ persistTo, leads }) {
  if (leads > 0) seedLeads({ count: leads, persistTo });
  // The blog reads a local feed, so /blog is measured as served from its posts cache.
  const feed = await startFeedServer({ respond: () => ({ body: sampleFeedXml({ items: 50 }) }) });
  return { vars: { BLOG_FEED_URL: feed.url }, adminCookie: undefined, stop: async () => feed.stop() };
}
