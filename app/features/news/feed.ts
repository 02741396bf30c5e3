/** The Atom feeds' addresses (docs/decisions/074-news-and-feeds.md): the group's, and one per venture. */
export const FEED_PATH = "/news.atom";

/** What a feed link says: what it is for, not the format's name (the address still ends .atom). */
export const FEED_LINK_TEXT = "Follow in a feed reader";

export const feedPath = (venture?: string | null) =>
  venture ? `${FEED_PATH}?venture=${encodeURIComponent(venture)}` : FEED_PATH;
