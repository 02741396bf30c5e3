import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { pages } from "~/content/pages";
import { SITE } from "~/content/site";
import { AlertsSignup } from "~/features/alerts/alerts-signup";
import { EventTime, useEventVentureLabel } from "~/features/events/event-list";
import { eventIcsPath, eventPath, eventsFeedPath } from "~/features/events/event-paths";
import { listItem, publishedEventBySlug } from "~/features/events/events.server";
import { renderMarkdown } from "~/features/news/markdown.server";
import { getDb } from "~/utils/db.server";
import { pageMeta, siteUrlFrom } from "~/utils/meta";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

export async function loader({ params, context }: LoaderFunctionArgs) {
  const event = await publishedEventBySlug(getDb(context.cloudflare.env), params.slug ?? "");
  if (!event) return json({ event: null }, { status: 404 });
  return json({
    event: {
      ...listItem(event),
      html: renderMarkdown(event.description),
      description: event.description,
      endsAt: event.endsAt,
      startDate: event.startDate,
      endDate: event.endDate,
      url: event.url,
      updatedAt: event.updatedAt,
    },
  });
}

/** The first paragraph of the description as plain text, for the meta description. */
const plain = (markdown: string) =>
  markdown
    .split(/\n\s*\n/)[0]!
    .replace(/[#*_`>[\]()]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 200);

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const event = data?.event;
  if (!event) return [{ title: `Event Not Found | ${SITE.name}` }, { name: "robots", content: "noindex" }];
  const siteUrl = siteUrlFrom(matches);
  const url = `${siteUrl}${eventPath(event.slug)}`;
  const description = plain(event.description) || `${event.title}: ${event.when}.`;
  const organizer = { "@type": "Organization", name: SITE.name, url: `${siteUrl}/` };
  return [
    ...pageMeta({
      page: { title: event.title, description },
      matches,
      path: eventPath(event.slug),
      jsonLd: {
        "@context": "https://schema.org",
        "@type": "Event",
        name: event.title,
        description,
        startDate: event.allDay ? event.startDate : new Date(event.startsAt).toISOString(),
        endDate: event.allDay ? event.endDate : new Date(event.endsAt).toISOString(),
        eventStatus:
          event.status === "cancelled" ? "https://schema.org/EventCancelled" : "https://schema.org/EventScheduled",
        eventAttendanceMode: event.location
          ? "https://schema.org/OfflineEventAttendanceMode"
          : "https://schema.org/OnlineEventAttendanceMode",
        location: event.location
          ? { "@type": "Place", name: event.location, address: event.location }
          : { "@type": "VirtualLocation", url: event.url ?? url },
        url,
        organizer,
      },
    }),
    { tagName: "link", rel: "alternate", type: "text/calendar", title: event.title, href: eventIcsPath(event.slug) },
  ];
};

export default function EventPage() {
  const eventVentureLabel = useEventVentureLabel();
  const { event } = useLoaderData<typeof loader>();
  if (!event) {
    return (
      <section className="mx-auto max-w-xl px-4 py-16 text-center">
        <h1 className="text-3xl font-semibold">Event Not Found</h1>
        <p className="mt-3 text-muted-foreground">This event does not exist or is no longer published.</p>
        <Link to={pages.events.path} className="btn btn-primary mt-8">
          All events
        </Link>
      </section>
    );
  }
  return (
    <div className="mx-auto grid max-w-6xl gap-8 px-4 pb-12 pt-10 lg:grid-cols-[1fr_20rem]">
      <article className="min-w-0">
        <p className="text-sm text-muted-foreground">
          <Link to={pages.events.path} className="underline-offset-4 hover:underline">
            Events
          </Link>{" "}
          · {eventVentureLabel(event.venture)}
        </p>
        <h1 className="wrap-anywhere mt-2 text-3xl font-bold tracking-tight sm:text-4xl">{event.title}</h1>
        {event.status === "cancelled" ? (
          <p className="mt-3 font-semibold text-destructive" data-testid="event-cancelled">
            This event is cancelled.
          </p>
        ) : null}
        <p className="wrap-anywhere mt-3" data-testid="event-when">
          <EventTime item={event} />
        </p>
        {event.location ? <p className="wrap-anywhere mt-1 text-muted-foreground">{event.location}</p> : null}
        {event.url ? (
          <p className="mt-1">
            <a
              href={event.url}
              className="wrap-anywhere text-primary underline underline-offset-2"
              rel="noopener noreferrer"
            >
              {event.url}
            </a>
          </p>
        ) : null}
        <p className="mt-4 flex flex-wrap gap-3">
          <a href={eventIcsPath(event.slug)} className="btn btn-primary" download={`${event.slug}.ics`}>
            Add to calendar
          </a>
        </p>
        {/* Rendered by the news renderer (markdown.server.ts): raw HTML off, links and images judged. */}
        {event.html ? <div className="news-body mt-6" dangerouslySetInnerHTML={{ __html: event.html }} /> : null}
        <p className="mt-8 text-sm text-muted-foreground">
          Subscribe to{" "}
          <a href={eventsFeedPath(event.venture)} className="text-primary underline underline-offset-2">
            {event.venture ? `${eventVentureLabel(event.venture)}'s events` : "the group's events"}
          </a>{" "}
          in your calendar.
        </p>
      </article>
      <AlertsSignup source="event" />
    </div>
  );
}
