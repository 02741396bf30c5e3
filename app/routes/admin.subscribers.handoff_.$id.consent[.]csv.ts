import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireAdmin } from "~/features/auth/guard.server";
import { requireNotSubresource, requireSameOrigin } from "~/features/forms/same-origin.server";
import { consentRecordsStream, handoffById, handoffFileName } from "~/features/handoff/handoff.server";
import { getConfig } from "~/utils/config.server";
import { getDb } from "~/utils/db.server";
import { BARE_NO_STORE } from "~/utils/no-store";

/**
 * GET /admin/subscribers/handoff/:id/consent.csv (admins): the consent records of one hand-off's
 * subscribers, what a newsletter host's list review asks (docs/decisions/098). A navigation from
 * another site and a subresource get 403, like the leads CSV; an unknown hand-off 404.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  requireSameOrigin(request);
  requireNotSubresource(request);
  await requireAdmin(request, env, { json: true });
  const id = Number(params.id);
  const db = getDb(env);
  const handoff = Number.isSafeInteger(id) && id > 0 ? await handoffById(db, id) : undefined;
  if (!handoff)
    return Response.json({ message: "No such hand-off" }, { status: 404, headers: { "Cache-Control": BARE_NO_STORE } });
  return new Response(consentRecordsStream(db, handoff, getConfig(env).siteUrl), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${handoffFileName(handoff, "consent-records")}"`,
      "Cache-Control": BARE_NO_STORE,
    },
  });
}
