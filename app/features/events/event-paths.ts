/** The public addresses of events and their calendar files (docs/decisions/095-events.md). */
import { pages } from "~/content/pages";
import { slugify } from "~/utils/slug";

export const EVENTS_PATH = pages.events.path;
export const eventPath = (slug: string) => `${EVENTS_PATH}/${slug}`;
export const eventIcsPath = (slug: string) => `${EVENTS_PATH}/${slug}.ics`;
/** The subscription feed: every published event, or one venture's. */
export const eventsFeedPath = (venture?: string | null) =>
  venture ? `/events.ics?venture=${encodeURIComponent(venture)}` : "/events.ics";
export const eventAdminPath = (id: number) => `${pages.eventsAdmin.path}/${id}`;
/** An event's slug: its title's, at most 80 characters ("event" when the title has no ASCII word). */
export const eventSlug = (title: string) => slugify(title, { max: 80, fallback: "event" });
