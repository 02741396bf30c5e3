import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { requireAdmin } from "~/features/auth/guard.server";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { exportAnswer } from "~/features/handoff/handoff.server";

/**
 * POST /admin/subscribers/handoff/export, where the worker hands the hand-off page's export form
 * (app/utils/file-posts.ts, docs/decisions/100): `format` (substack, ghost, buttondown) and
 * `scope` (new, all) answer the chosen confirmed newsletter subscribers as a CSV attachment in
 * that host's import columns, the hand-off recorded and audited before the first row leaves
 * (docs/decisions/098). Cross-site → 403, not an admin → 404, a bad choice → 400.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  requireSameOrigin(request);
  const admin = await requireAdmin(request, env);
  return exportAnswer(request, env, admin.email);
}
