/** The news form's fields and rules (docs/decisions/074-news-and-feeds.md), shared by the page and its action. */
import { z } from "zod";
import { ventureField } from "~/features/ventures/venture-field";
import { slugify } from "~/utils/slug";
import { requiredText } from "~/features/forms/text-field";

export const NEWS_LIMITS = { title: 140, summary: 300, body: 20_000 } as const;

/** What the form's submit buttons ask for. */
export const NEWS_INTENTS = ["save", "preview"] as const;

export const newsSchema = z.object({
  title: requiredText("title", NEWS_LIMITS.title),
  summary: requiredText("summary", NEWS_LIMITS.summary),
  body: requiredText("body", NEWS_LIMITS.body),
  /** Empty: the group's own news. */
  venture: ventureField(),
  publish: z.boolean().default(false),
  alert: z.boolean().default(false),
});

export type NewsInput = z.infer<typeof newsSchema>;

/** The public path of an item. */
export const newsPath = (slug: string) => `/news/${slug}`;

/** An item's slug: its title's, at most 80 characters. */
export const newsSlug = (title: string) => slugify(title, { max: 80, fallback: "news" });
