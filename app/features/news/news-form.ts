/** The news form's fields and rules (docs/decisions/074-news-and-feeds.md), shared by the page and its action. */
import { z } from "zod";
import { ventureField } from "~/features/ventures/venture-field";
import { slugify } from "~/utils/slug";
import { formatInteger } from "~/utils/format";

export const NEWS_LIMITS = { title: 140, summary: 300, body: 20_000 } as const;

/** What the form's submit buttons ask for. */
export const NEWS_INTENTS = ["save", "preview"] as const;

const text = (label: string, max: number) =>
  z
    .string({ required_error: `Please enter a ${label}.` })
    .trim()
    .min(1, `Please enter a ${label}.`)
    .max(max, `Please keep the ${label} to ${formatInteger(max)} characters.`);

export const newsSchema = z.object({
  title: text("title", NEWS_LIMITS.title),
  summary: text("summary", NEWS_LIMITS.summary),
  body: text("body", NEWS_LIMITS.body),
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
