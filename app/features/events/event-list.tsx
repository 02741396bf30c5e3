/** Events as the public pages show them (/events, an event's page, a venture's page). */
import { Link } from "@remix-run/react";
import { cardClass } from "~/components/ui/card";
import { eventPath } from "~/features/events/event-paths";
import { formatInZone } from "~/features/events/event-time";
import { useVentureLabel } from "~/features/news/news-list";
import { useHydrated } from "~/utils/use-hydrated";

/** What a list shows of an event; `when` is the organiser's time, written by the server. */
export interface EventListItem {
  id: number;
  slug: string;
  title: string;
  when: string;
  startsAt: number;
  allDay: boolean;
  timezone: string;
  venture: string | null;
  location: string;
  status: "scheduled" | "cancelled";
}

/**
 * The organiser's time (with its zone and UTC offset, the same for everyone and without
 * JavaScript) and, once the page runs, the visitor's own clock beside it when it differs.
 */
export function EventTime({ item }: { item: Pick<EventListItem, "when" | "startsAt" | "allDay" | "timezone"> }) {
  const hydrated = useHydrated();
  const own = hydrated && !item.allDay ? Intl.DateTimeFormat().resolvedOptions().timeZone : null;
  return (
    <>
      <time dateTime={new Date(item.startsAt).toISOString()}>{item.when}</time>
      {own && own !== item.timezone ? (
        <span data-testid="event-local-time"> · your time: {formatInZone(item.startsAt, own)}</span>
      ) : null}
    </>
  );
}

export function EventList({ items, headingLevel = 2 }: { items: readonly EventListItem[]; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const eventVentureLabel = useVentureLabel();
  return (
    <ul className="grid gap-4" data-testid="event-list">
      {items.map((item) => (
        <li key={item.id}>
          <article className={cardClass("lg", "relative")}>
            <Heading className="wrap-anywhere text-lg font-semibold">
              <Link to={eventPath(item.slug)} className="stretched-link hover:underline">
                {item.status === "cancelled" ? "Cancelled: " : ""}
                {item.title}
              </Link>
            </Heading>
            <p className="wrap-anywhere mt-1 text-sm text-muted-foreground">
              <EventTime item={item} /> · {eventVentureLabel(item.venture)}
              {item.location ? ` · ${item.location}` : ""}
            </p>
          </article>
        </li>
      ))}
    </ul>
  );
}
