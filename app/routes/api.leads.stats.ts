import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { adminOrResponse } from "~/features/auth/api-guard.server";
import { getLeadStats, statsResponse } from "~/features/leads/leads.server";

/** GET /api/leads/stats (admins): `{ total, thisWeek, bySource }`, counted in SQL. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  const admin = await adminOrResponse(request, env);
  if (admin instanceof Response) return admin;
  return Response.json(statsResponse(await getLeadStats(env.DB)), { headers: { "Cache-Control": "private, no-store" } });
}
