import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { adminOrResponse } from "~/features/auth/api-guard.server";
import { csvFileName, leadsCsvStream } from "~/features/leads/csv.server";

/** GET /admin/leads.csv (admins): every lead as CSV, streamed from D1 page by page. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  const admin = await adminOrResponse(request, env);
  if (admin instanceof Response) return admin;
  // There is no export without leads (the dashboard's button is disabled then too).
  const any = await env.DB.prepare("SELECT 1 FROM leads LIMIT 1").first();
  if (!any) return Response.json({ message: "No leads to export" }, { status: 409, headers: { "Cache-Control": "no-store" } });
  return new Response(leadsCsvStream(env.DB), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${csvFileName()}"`,
      "Cache-Control": "no-store",
    },
  });
}
