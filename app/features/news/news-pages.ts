/** The public pages a news item appears on, for purging their cached HTML after a change. */
import { pages } from "~/content/pages";
import { newsPath } from "~/features/news/news-form";

export const newsListPath = (venture?: string | null) =>
  venture ? `${pages.news.path}?venture=${encodeURIComponent(venture)}` : pages.news.path;

/** Every page that shows the item (before and after the change: pass both ventures). */
export function pagesShowing(item: { slug: string }, ventures: readonly (string | null)[]): string[] {
  const own = [...new Set(ventures)].flatMap((v) => (v ? [newsListPath(v), `/subsidiary/${v}`] : []));
  return [pages.news.path, newsPath(item.slug), pages.investors.path, ...own];
}
