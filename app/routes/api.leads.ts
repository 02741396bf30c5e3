import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import type { ClientActionFunctionArgs } from "@remix-run/react";
import { requireAdmin } from "~/features/auth/guard.server";
import { handleSignup } from "~/features/leads/signup.server";
import { decodeCursor, encodeCursor, LIST_LIMIT, listLeads } from "~/features/leads/lead-list.server";
import { filterParams, parseLeadFilters } from "~/features/leads/lead-filters.server";
import { getDb } from "~/utils/db.server";
import { NO_STORE } from "~/utils/no-store";

/** POST /api/leads: the newsletter signup, JSON or a form post (app/features/leads/signup.server.ts). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") {
    return Response.json({ message: "Method not allowed" }, { status: 405, headers: { Allow: "GET, POST" } });
  }
  return handleSignup(request, context.cloudflare.env, context.cloudflare.ctx);
}

/**
 * In the browser, for the signup form's fetcher: a lost connection (or an answer Remix cannot read)
 * is the form's failed signup, not the page's error boundary. A redirect goes on as one.
 */
export async function clientAction({ serverAction }: ClientActionFunctionArgs) {
  try {
    return await serverAction();
  } catch (error) {
    if (error instanceof Response) throw error;
    return null;
  }
}

/**
 * GET /api/leads (admins): a JSON array of leads, newest first, `?limit=` (default 100, at most
 * 1000), the workbench's filters (`?status=` confirmed by default, or pending, unsubscribed, undeliverable, all;
 * `q`, `source`, `from`, `to`), and
 * `Link: <…>; rel="next"` while more follow.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  await requireAdmin(request, env, { json: true });

  const url = new URL(request.url);
  const limitParam = url.searchParams.get("limit");
  if (limitParam !== null && !/^[1-9]\d{0,6}$/.test(limitParam)) {
    return Response.json({ message: `limit must be a whole number from 1 to ${LIST_LIMIT.max}` }, { status: 400 });
  }
  const limit = Math.min(Number(limitParam ?? LIST_LIMIT.default), LIST_LIMIT.max);
  const cursor = decodeCursor(url.searchParams.get("cursor"));
  if (cursor === "invalid") return Response.json({ message: "cursor is not one this API gave out" }, { status: 400 });
  const parsed = parseLeadFilters(url.searchParams);
  if (!parsed.ok)
    return Response.json({ message: Object.values(parsed.errors).join(" "), errors: parsed.errors }, { status: 400 });

  const page = await listLeads(getDb(env), { limit, cursor, filters: parsed.filters });
  const headers = new Headers(NO_STORE);
  if (page.next) {
    const next = filterParams(parsed.filters);
    next.set("limit", String(limit));
    next.set("cursor", encodeCursor(page.next));
    headers.set("Link", `<${url.pathname}?${next}>; rel="next"`);
  }
  return Response.json(page.leads, { headers });
}
