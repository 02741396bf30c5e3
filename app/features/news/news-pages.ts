/** The public news list's address, all or one venture's. */
import { pages } from "~/content/pages";

export const newsListPath = (venture?: string | null) =>
  venture ? `${pages.news.path}?venture=${encodeURIComponent(venture)}` : pages.news.path;
