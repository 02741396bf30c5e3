/** The public news list's address, all or one venture's. */
import { pages } from "~/content/pages";
import { newsPath } from "~/features/news/news-form";

export const newsListPath = (venture?: string | null) =>
  venture ? `${pages.news.path}?venture=${encodeURIComponent(venture)}` : pages.news.path;
