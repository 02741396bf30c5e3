import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { calendarResponse } from "~/features/events/calendar.server";
import { publishedEventBySlug } from "~/features/events/events.server";
import { getConfig } from "~/utils/config.server";
import { getDb } from "~/utils/db.server";

/** `/events/<slug>.ics`: one published event's calendar file ("Add to calendar"). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  const event = await publishedEventBySlug(getDb(env), params.slug ?? "");
  if (!event) return new Response("No such event.", { status: 404 });
  return calendarResponse(request, getConfig(env).siteUrl, event.title, [event], `${event.slug}.ics`);
}
