/**
 * A URL-safe slug from a title: lower-case ASCII words joined by hyphens ("Q3 Report: 2026" →
 * "q3-report-2026"), at most `max` characters, `fallback` when nothing is left. News, events and
 * document paths all use it.
 */
export function slugify(text: string, { max, fallback }: { max: number; fallback: string }): string {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, max)
    .replace(/-+$/, "");
  return slug || fallback;
}
