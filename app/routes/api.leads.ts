import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { adminOrResponse } from "~/features/auth/api-guard.server";
import { handleSignup } from "~/features/leads/signup.server";
import { decodeCursor, encodeCursor, LIST_LIMIT, listLeads, parseLeadFilter, STATUS_PARAM_ERROR } from "~/features/leads/leads.server";

/** POST /api/leads: the newsletter signup, JSON or a form post (app/features/leads/signup.server.ts). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") {
    return Response.json({ message: "Method not allowed" }, { status: 405, headers: { Allow: "GET, POST" } });
  }
  return handleSignup(request, context.cloudflare.env, context.cloudflare.ctx);
}

/**
 * GET /api/leads (admins): a JSON array of leads, newest first, `?limit=` (default 100, at most
 * 1000), `?status=` (confirmed by default; pending, unsubscribed or all), and
 * `Link: <…>; rel="next"` while more follow.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  const admin = await adminOrResponse(request, env);
  if (admin instanceof Response) return admin;

  const url = new URL(request.url);
  const limitParam = url.searchParams.get("limit");
  if (limitParam !== null && !/^[1-9]\d{0,6}$/.test(limitParam)) {
    return Response.json({ message: `limit must be a whole number from 1 to ${LIST_LIMIT.max}` }, { status: 400 });
  }
  const limit = Math.min(Number(limitParam ?? LIST_LIMIT.default), LIST_LIMIT.max);
  const cursor = decodeCursor(url.searchParams.get("cursor"));
  if (cursor === "invalid") return Response.json({ message: "cursor is not one this API gave out" }, { status: 400 });
  const filter = parseLeadFilter(url.searchParams.get("status"));
  if (!filter) return Response.json({ message: STATUS_PARAM_ERROR }, { status: 400 });

  const page = await listLeads(env.DB, { limit, cursor, filter });
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  if (page.next) {
    const next = new URLSearchParams({ limit: String(limit), cursor: encodeCursor(page.next) });
    if (url.searchParams.has("status")) next.set("status", filter);
    headers.set("Link", `<${url.pathname}?${next}>; rel="next"`);
  }
  return Response.json(page.leads, { headers });
}
