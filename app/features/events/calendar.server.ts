/**
 * The calendar files' answers (docs/decisions/095-events.md): the events as RFC 5545 text, with an
 * ETag and Last-Modified, 304 for a copy still current (the news feeds' conditional answer).
 */
import type { CalendarEvent } from "~/db/schema";
import { eventPath } from "~/features/events/event-paths";
import { ICS_CONTENT_TYPE, icsCalendar, type IcsEvent } from "~/features/events/ics";
import { feedResponse } from "~/features/news/feed.server";
import { markdownToText } from "~/features/news/markdown.server";

const toIcs = (e: CalendarEvent, siteUrl: string): IcsEvent => ({
  uid: e.uid,
  sequence: e.sequence,
  updatedAt: e.updatedAt,
  createdAt: e.createdAt,
  title: e.title,
  // Calendars show DESCRIPTION as plain text: the Markdown's words, not its `**`.
  description: markdownToText(e.description),
  location: e.location,
  pageUrl: new URL(eventPath(e.slug), siteUrl).href,
  link: e.url,
  status: e.status,
  allDay: e.allDay,
  startsAt: e.startsAt,
  endsAt: e.endsAt,
  startDate: e.startDate,
  endDate: e.endDate,
});

/** A calendar file of these events, answered as `text/calendar` (or 304). */
export function calendarResponse(
  request: Request,
  siteUrl: string,
  name: string,
  events: readonly CalendarEvent[],
  filename: string,
): Promise<Response> {
  const body = icsCalendar(
    name,
    events.map((e) => toIcs(e, siteUrl)),
  );
  const updated = events.length ? Math.max(...events.map((e) => e.updatedAt)) : null;
  return feedResponse(request, body, updated, {
    "Content-Type": ICS_CONTENT_TYPE,
    "Content-Disposition": `inline; filename="${filename}"`,
  });
}
