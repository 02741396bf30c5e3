import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireAdmin } from "~/features/auth/guard.server";
import { auditLeadsExport, csvFileName, leadsCsvStream } from "~/features/leads/csv.server";
import { parseLeadFilters } from "~/features/leads/lead-filters.server";
import { requireNotSubresource, requireSameOrigin } from "~/features/forms/same-origin.server";
import { getDb } from "~/utils/db.server";
import { BARE_NO_STORE } from "~/utils/no-store";

/**
 * GET /admin/leads.csv (admins): the leads the workbench's filters select (confirmed by default;
 * `?q=&source=&status=&from=&to=`) as CSV, streamed from D1 page by page. Each export is audited
 * (who, when, which filters) before its first row leaves. A navigation from another site gets the
 * 403 of every cross-site request, and a subresource (an `<img>` on any page) a 403 too: no audit
 * entry in the admin's name, no file in their downloads.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  requireSameOrigin(request);
  requireNotSubresource(request);
  const admin = await requireAdmin(request, env, { json: true });
  const parsed = parseLeadFilters(new URL(request.url).searchParams);
  if (!parsed.ok) {
    return Response.json(
      { message: Object.values(parsed.errors).join(" "), errors: parsed.errors },
      { status: 400, headers: { "Cache-Control": BARE_NO_STORE } },
    );
  }
  const { filters } = parsed;
  // There is no export without leads (the dashboard's button is disabled then too): the audit entry
  // is written only when the filters select some, in the same statement that looks.
  if (!(await auditLeadsExport(getDb(env), admin.email ?? admin.id, filters)))
    return Response.json(
      { message: "No leads to export" },
      { status: 409, headers: { "Cache-Control": BARE_NO_STORE } },
    );
  return new Response(leadsCsvStream(getDb(env), { filters }), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${csvFileName()}"`,
      "Cache-Control": BARE_NO_STORE,
    },
  });
}
