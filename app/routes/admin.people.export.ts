import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { requireAdmin } from "~/features/auth/guard.server";
import { readForm } from "~/features/forms/body.server";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { exportPerson, exportResponse } from "~/features/privacy/export.server";
import { auditStatement } from "~/features/admin/audit.server";
import { maskAddress } from "~/features/mail/message";
import { emailSchema } from "~/utils/email-schema";
import { getDb } from "~/utils/db.server";
import { BARE_NO_STORE } from "~/utils/no-store";

/**
 * `POST /admin/people/export` with `email` (admins; "Export this person" on /admin/leads):
 * everything stored under that address as a JSON download (docs/decisions/019-personal-data.md).
 * A POST so that personal data never sits in a URL, a history or a server log. Audited (who, when,
 * the masked address) in the export's own batch.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  requireSameOrigin(request);
  const admin = await requireAdmin(request, env, { json: true });
  const form = await readForm(request, { maxBytes: 2048 });
  const email = emailSchema().safeParse(form.get("email") ?? "");
  if (!email.success)
    return Response.json(
      { message: "email must be an e-mail address" },
      { status: 400, headers: { "Cache-Control": BARE_NO_STORE } },
    );
  const audit = auditStatement(getDb(env), {
    actor: admin.email,
    action: "person.export",
    target: maskAddress(email.data),
  });
  return exportResponse(await exportPerson(getDb(env), email.data, Date.now(), [audit]), "afx-person");
}
