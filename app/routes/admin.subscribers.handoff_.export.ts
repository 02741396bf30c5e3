import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { requireAdmin } from "~/features/auth/guard.server";
import { readForm } from "~/features/forms/body.server";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { handoffExportStream, handoffFileName, recordHandoff } from "~/features/handoff/handoff.server";
import { HANDOFF_FORMATS, HANDOFF_SCOPES, type HandoffFormat, type HandoffScope } from "~/features/handoff/hosts";
import { getConfig } from "~/utils/config.server";
import { getDb } from "~/utils/db.server";

/**
 * POST /admin/subscribers/handoff/export, and the hand-off page's export form posted to the page
 * itself (the worker hands it here: app/utils/file-posts.ts). `format` (substack, ghost,
 * buttondown) and `scope` (new, all): the chosen confirmed newsletter subscribers as a CSV
 * attachment in that host's import columns, the hand-off recorded and audited before the first
 * row leaves (docs/decisions/098). Cross-site → 403, not an admin → 404, a bad choice → 400.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  requireSameOrigin(request);
  const admin = await requireAdmin(request, env);
  const form = await readForm(request, { maxBytes: 1024 });
  const format = String(form.get("format") ?? "") as HandoffFormat;
  const scope = String(form.get("scope") ?? "") as HandoffScope;
  if (!HANDOFF_FORMATS.includes(format) || !HANDOFF_SCOPES.includes(scope))
    return new Response(
      `Choose a host (${HANDOFF_FORMATS.join(", ")}) and which subscribers (${HANDOFF_SCOPES.join(" or ")}).`,
      { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } },
    );
  const db = getDb(env);
  const handoff = await recordHandoff(db, { actor: admin.email, format, scope });
  return new Response(handoffExportStream(db, handoff, getConfig(env).siteUrl), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${handoffFileName(handoff, "subscribers")}"`,
      "Cache-Control": "no-store",
    },
  });
}
