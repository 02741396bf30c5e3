/** A list of news items (the /news page, a venture's page, /investors): title, date, venture, summary. */
import { Link } from "@remix-run/react";
import { cardClass } from "~/components/ui/card";
import { getSubsidiary } from "~/content/subsidiaries";
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

/** The venture's name, or the group's. */
export const ventureLabel = (venture: string | null) =>
  venture ? (getSubsidiary(venture)?.name ?? venture) : "AFX Holding Group";

export function NewsDate({ at }: { at: number }) {
  return <time dateTime={new Date(at).toISOString()}>{formatLongDate(new Date(at))}</time>;
}

export function NewsList({ items, headingLevel = 2 }: { items: readonly NewsListItem[]; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
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
