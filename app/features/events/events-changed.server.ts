/**
 * After an event's write: the cached HTML of every page that shows it is refreshed, so a visitor
 * sees the change at once (the feeds and .ics files are never stored: each poll asks, and a
 * current copy costs a 304). The one place events reach the HTML cache (docs/decisions/077).
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { EVENTS_PATH, eventPath } from "~/features/events/event-paths";

/** Every page that shows the event (before and after the change: pass both ventures). */
export function pagesShowingEvent(event: { slug: string }, ventures: readonly (string | null)[]): string[] {
  const own = [...new Set(ventures)].flatMap((v) => (v ? [`/subsidiary/${v}`] : []));
  return [EVENTS_PATH, eventPath(event.slug), ...own];
}

export async function eventsChanged(
  context: Pick<AppLoadContext, "purgePages">,
  event: { slug: string },
  ventures: readonly (string | null)[],
): Promise<void> {
  await context.purgePages(pagesShowingEvent(event, ventures));
}
