import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { adminOrResponse } from "~/features/auth/api-guard.server";
import { csvFileName, leadsCsvStream } from "~/features/leads/csv.server";
import { parseLeadFilter, statusCondition, STATUS_PARAM_ERROR } from "~/features/leads/leads.server";

/** GET /admin/leads.csv (admins): the confirmed leads (or `?status=`) as CSV, streamed from D1 page by page. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  const admin = await adminOrResponse(request, env);
  if (admin instanceof Response) return admin;
  const filter = parseLeadFilter(new URL(request.url).searchParams.get("status"));
  if (!filter) return Response.json({ message: STATUS_PARAM_ERROR }, { status: 400, headers: { "Cache-Control": "no-store" } });
  // There is no export without leads (the dashboard's button is disabled then too).
  const any = await env.DB.prepare(`SELECT 1 FROM leads WHERE ${statusCondition(filter)} LIMIT 1`).first();
  if (!any) return Response.json({ message: "No leads to export" }, { status: 409, headers: { "Cache-Control": "no-store" } });
  return new Response(leadsCsvStream(env.DB, { filter }), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${csvFileName()}"`,
      "Cache-Control": "no-store",
    },
  });
}
