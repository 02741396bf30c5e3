import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { shownVenture } from "~/features/ventures/catalogue.server";
import { atomFeed, FEED_SIZE, feedResponse } from "~/features/news/feed.server";
import { feedNews, lastNewsChange } from "~/features/news/news.server";
import { getConfig } from "~/utils/config.server";
import { getDb } from "~/utils/db.server";

/** `/news.atom`, the group's feed; `?venture=<id>`, one venture's (an unknown one is a 404). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  const param = new URL(request.url).searchParams.get("venture");
  const db = getDb(env);
  const venture = param ? await shownVenture(db, param) : null;
  if (param && !venture) return new Response("No such venture.", { status: 404 });
  const entries = await feedNews(db, venture?.id ?? null, FEED_SIZE);
  const { xml, updated } = atomFeed(
    getConfig(env).siteUrl,
    entries,
    venture ? { id: venture.id, name: venture.name } : null,
    entries.length ? null : await lastNewsChange(db),
  );
  return feedResponse(request, xml, updated);
}
