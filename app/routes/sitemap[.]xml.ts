import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getConfig } from "~/utils/config.server";
import { ADMIN_PAGES, pages } from "~/content/pages";
import { shownVentures } from "~/features/ventures/catalogue.server";
import { listPublished } from "~/features/documents/catalogue.server";
import { newsPath } from "~/features/news/news-form";
import { listPublishedNews } from "~/features/news/news.server";
import { getDb } from "~/utils/db.server";
import { eventPath } from "~/features/events/event-paths";
import { publishedEvents } from "~/features/events/events.server";

// Public pages only: the signed-in and admin pages are not for search engines.
const PRIVATE: readonly string[] = [...ADMIN_PAGES.map((p) => p.path), pages.settings.path, pages.notifications.path];

/** News items listed, newest first (far more than the group writes in years). */
const NEWS_LIMIT = 1000;

export async function loader({ context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  const { siteUrl } = getConfig(env);
  const db = getDb(env);
  // The public documents' files, at their stable URLs (members-only ones are not for crawlers).
  const [files, news, events, ventures] = await Promise.all([
    listPublished(db, { members: false }),
    listPublishedNews(db, { limit: NEWS_LIMIT }),
    publishedEvents(db, { limit: NEWS_LIMIT }),
    shownVentures(db),
  ]);
  const paths = [
    ...Object.values(pages)
      .map((p) => p.path)
      .filter((p) => !PRIVATE.includes(p)),
    ...ventures.map((s) => `/subsidiary/${s.id}`),
    ...news.map((n) => newsPath(n.slug)),
    ...events.map((e) => eventPath(e.slug)),
  ];
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${paths.map((p) => `  <url><loc>${siteUrl}${p}</loc></url>`).join("\n")}
${files.map((f) => `  <url><loc>${siteUrl}${encodeURI(f.path)}</loc><lastmod>${new Date(f.updatedAt).toISOString().slice(0, 10)}</lastmod></url>`).join("\n")}
</urlset>
`;
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
