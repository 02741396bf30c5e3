import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { calendarResponse } from "~/features/events/calendar.server";
import { publishedEvents } from "~/features/events/events.server";
import { shownVenture } from "~/features/ventures/catalogue.server";
import { getConfig } from "~/utils/config.server";
import { getDb } from "~/utils/db.server";

/**
 * `/events.ics`: every published event as one calendar to subscribe to (cancelled ones stay, as
 * CANCELLED); `?venture=<id>`, one venture's (an unknown one is a 404).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  const param = new URL(request.url).searchParams.get("venture");
  const db = getDb(env);
  // A hidden venture answers as an unknown one.
  const venture = param ? await shownVenture(db, param) : null;
  if (param && !venture) return new Response("No such venture.", { status: 404 });
  const events = await publishedEvents(db, { venture: venture?.id ?? null });
  return calendarResponse(
    request,
    getConfig(env).siteUrl,
    venture ? `${venture.name} events` : "AFX Holding Group events",
    events,
    venture ? `${venture.id}-events.ics` : "events.ics",
  );
}
