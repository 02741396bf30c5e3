import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireAdmin } from "~/features/auth/guard.server";
import { csvFileName, leadsCsvStream } from "~/features/leads/csv.server";
import { filterCondition, parseLeadFilters, type LeadFilters } from "~/features/leads/lead-filters.server";
import { auditStatement } from "~/features/admin/audit.server";

/** The export's filters for its audit entry; a search may be an address or a name, so only its presence is kept. */
const filtersDetail = (f: LeadFilters) =>
  [`status=${f.status}`, f.source && `source=${f.source}`, f.from && `from=${f.from}`, f.to && `to=${f.to}`, f.q && "a search"].filter(Boolean).join(", ");

/**
 * GET /admin/leads.csv (admins): the leads the workbench's filters select (confirmed by default;
 * `?q=&source=&status=&from=&to=`) as CSV, streamed from D1 page by page. Each export is audited
 * (who, when, which filters) before its first row leaves.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  const admin = await requireAdmin(request, env, { json: true });
  const parsed = parseLeadFilters(new URL(request.url).searchParams);
  if (!parsed.ok) {
    return Response.json({ message: Object.values(parsed.errors).join(" "), errors: parsed.errors }, { status: 400, headers: { "Cache-Control": "no-store" } });
  }
  const { filters } = parsed;
  // There is no export without leads (the dashboard's button is disabled then too): the audit entry
  // is written only when the filters select some, in the same statement that looks.
  const where = filterCondition(filters);
  const audit = auditStatement(env.DB, { actor: admin.email, action: "leads.export", target: "leads CSV", detail: filtersDetail(filters) }, Date.now(), {
    sql: "''",
    from: `SELECT 1 WHERE EXISTS (SELECT 1 FROM leads WHERE ${where.sql})`,
    params: where.params,
  });
  if (!(await audit.run()).meta.changes) return Response.json({ message: "No leads to export" }, { status: 409, headers: { "Cache-Control": "no-store" } });
  return new Response(leadsCsvStream(env.DB, { filters }), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${csvFileName()}"`,
      "Cache-Control": "no-store",
    },
  });
}
