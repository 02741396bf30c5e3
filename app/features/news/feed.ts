/** The Atom feeds' addresses (docs/decisions/074-news-and-feeds.md): the group's, and one per venture. */
export const FEED_PATH = "/news.atom";

export const feedPath = (venture?: string | null) =>
  venture ? `${FEED_PATH}?venture=${encodeURIComponent(venture)}` : FEED_PATH;
