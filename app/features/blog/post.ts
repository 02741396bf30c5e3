import { SITE } from "~/content/site";

/**
 * A blog post as the page receives it. The feed's HTML `content` is read on the server
 * (excerpt, reading time, cover image) but never sent: it is never shown, and ten full articles
 * would multiply the page's weight (docs/decisions/007-blog-feed.md).
 */
export type BlogPost = {
  id: string;
  title: string;
  excerpt: string;
  /** An absolute http(s) URL, or null. */
  coverImage: string | null;
  /** ISO 8601, or null when the feed gives no usable date. */
  publishedAt: string | null;
  author: string;
  /** The post on the newsletter's site (absolute http(s)), or null. */
  url: string | null;
  /** Minutes at 200 words per minute, rounded up, at least 1. */
  readingTime: number;
};

export const DEFAULT_AUTHOR = SITE.name;

/** The single built-in post shown when no feed is usable. */
export const PLACEHOLDER_POST: BlogPost = {
  id: "afx-insights-placeholder",
  title: "Welcome to AFX Insights",
  excerpt:
    "News and insights from AFX Holding Group and its ventures appear here as our newsletter publishes them. Subscribe with the newsletter form on this page to get every issue first.",
  coverImage: null,
  publishedAt: null,
  author: DEFAULT_AUTHOR,
  url: null,
  readingTime: 1,
};
