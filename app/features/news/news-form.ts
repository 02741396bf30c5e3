/** The news form's fields and rules (docs/decisions/074-news-and-feeds.md), shared by the page and its action. */
import { z } from "zod";
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

/** A venture's id as the catalogue spells it (the action checks that it is one: features/ventures). */
export const VENTURE_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const newsSchema = z.object({
  title: text("title", NEWS_LIMITS.title),
  summary: text("summary", NEWS_LIMITS.summary),
  body: text("body", NEWS_LIMITS.body),
  /** Empty: the group's own news. */
  venture: z
    .string()
    .regex(VENTURE_ID, "Please choose a venture from the list.")
    .optional()
    .transform((v) => v ?? null),
  publish: z.boolean().default(false),
  alert: z.boolean().default(false),
});

export type NewsInput = z.infer<typeof newsSchema>;

/** The public path of an item. */
export const newsPath = (slug: string) => `/news/${slug}`;

/** A URL-safe slug from a title: lower-case ASCII words joined by hyphens, at most 80 characters. */
export function slugify(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return slug || "news";
}
