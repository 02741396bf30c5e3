import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireAdmin } from "~/features/auth/guard.server";
import { getLeadStats, statsResponse } from "~/features/leads/lead-stats.server";
import { parseLeadFilter, STATUS_PARAM_ERROR } from "~/features/leads/lead-filters.server";
import { getDb } from "~/utils/db.server";
import { NO_STORE } from "~/utils/no-store";

/** GET /api/leads/stats (admins): `{ total, thisWeek, bySource }` of confirmed leads (or `?status=`), counted in SQL. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  await requireAdmin(request, env, { json: true });
  const filter = parseLeadFilter(new URL(request.url).searchParams.get("status"));
  if (!filter) return Response.json({ message: STATUS_PARAM_ERROR }, { status: 400 });
  return Response.json(statsResponse(await getLeadStats(getDb(env), Date.now(), filter)), {
    headers: NO_STORE,
  });
}
