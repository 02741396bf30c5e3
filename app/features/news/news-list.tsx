/** A list of news items (the /news page, a venture's page, /investors): title, date, venture, summary. */
import { Link } from "@remix-run/react";
import { cardClass } from "~/components/ui/card";
import { useRootData } from "~/root-data";
import { newsPath } from "~/features/news/news-form";
import { formatLongDate } from "~/utils/format";

export interface NewsListItem {
  id: number;
  slug: string;
  title: string;
  summary: string;
  venture: string | null;
  publishedAt: number;
}

const GROUP = { id: null, name: "AFX Holding Group" } as const;

/**
 * The venture an item is tagged with as the public pages show it: one of the shown catalogue the
 * root loader carries, or the group's. A hidden venture's item reads as the group's: its id is
 * never shown, nor linked to a page that is not there.
 */
export function useShownVenture(): (venture: string | null) => { id: string | null; name: string } {
  const ventures = useRootData()?.ventures;
  return (venture) => ventures?.find((s) => s.id === venture) ?? GROUP;
}

/** The venture's name (the shown catalogue's), or the group's. */
export function useVentureLabel(): (venture: string | null) => string {
  const shown = useShownVenture();
  return (venture) => shown(venture).name;
}

export function NewsDate({ at }: { at: number }) {
  return <time dateTime={new Date(at).toISOString()}>{formatLongDate(new Date(at))}</time>;
}

export function NewsList({ items, headingLevel = 2 }: { items: readonly NewsListItem[]; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const ventureLabel = useVentureLabel();
  return (
    <ul className="grid gap-4" data-testid="news-list">
      {items.map((item) => (
        <li key={item.id}>
          <article className={cardClass()}>
            <Heading className="text-lg font-semibold">
              <Link to={newsPath(item.slug)} className="hover:underline">
                {item.title}
              </Link>
            </Heading>
            <p className="mt-1 text-sm text-muted-foreground">
              <NewsDate at={item.publishedAt} /> · {ventureLabel(item.venture)}
            </p>
            <p className="mt-2">{item.summary}</p>
          </article>
        </li>
      ))}
    </ul>
  );
}
