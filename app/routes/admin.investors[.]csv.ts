import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireAdmin } from "~/features/auth/guard.server";
import { pipelineCsv, pipelineCsvFileName } from "~/features/engagement/pipeline-csv.server";
import {
  auditPipelineExport,
  parsePipelineFilters,
  pipelineEntries,
  pipelineVentures,
} from "~/features/engagement/pipeline.server";
import { requireNotSubresource, requireSameOrigin } from "~/features/forms/same-origin.server";
import { getDb } from "~/utils/db.server";
import { BARE_NO_STORE } from "~/utils/no-store";

/**
 * GET /admin/investors.csv (admins): the pipeline the page's filters select (`?venture=&stage=`),
 * one row per investor and venture, every cell formula-safe (docs/decisions/118). Each export is
 * audited before its rows leave. A navigation from another site and a subresource get a 403: no
 * audit entry in the admin's name, no file in their downloads; unknown filters a 400.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  requireSameOrigin(request);
  requireNotSubresource(request);
  const admin = await requireAdmin(request, env, { json: true });
  const db = getDb(env);
  const ventures = await pipelineVentures(db);
  const parsed = parsePipelineFilters(new URL(request.url).searchParams, ventures);
  if (!parsed.ok)
    return Response.json({ message: parsed.message }, { status: 400, headers: { "Cache-Control": BARE_NO_STORE } });
  const entries = await pipelineEntries(db, parsed.filters, ventures);
  await auditPipelineExport(db, admin.email, parsed.filters, entries.length);
  return new Response(pipelineCsv(entries), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${pipelineCsvFileName()}"`,
      "Cache-Control": BARE_NO_STORE,
    },
  });
}
