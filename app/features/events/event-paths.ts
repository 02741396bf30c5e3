/** The public addresses of events and their calendar files (docs/decisions/095-events.md). */
import { pages } from "~/content/pages";

export const EVENTS_PATH = pages.events.path;
export const eventPath = (slug: string) => `${EVENTS_PATH}/${slug}`;
export const eventIcsPath = (slug: string) => `${EVENTS_PATH}/${slug}.ics`;
/** The subscription feed: every published event, or one venture's. */
export const eventsFeedPath = (venture?: string | null) =>
  venture ? `/events.ics?venture=${encodeURIComponent(venture)}` : "/events.ics";
export const eventAdminPath = (id: number) => `${pages.eventsAdmin.path}/${id}`;
