import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { getUser } from "~/features/auth/users.server";
import { readForm } from "~/features/forms/body.server";
import { limitClient } from "~/features/forms/rate-limit.server";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { exportMember, exportResponse } from "~/features/privacy/export.server";
import { getDb } from "~/utils/db.server";
import { BARE_NO_STORE } from "~/utils/no-store";

const plain = (message: string, status: number, headers: Record<string, string> = {}) =>
  new Response(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": BARE_NO_STORE, ...headers },
  });

/** A GET (a bookmarked or typed URL) goes to Settings, where the button is. */
export function loader() {
  return redirect("/settings");
}

/**
 * `POST /settings/data` ("Download my data"): the signed-in member's data as a JSON download
 * (docs/decisions/019-personal-data.md). A POST, so no link, prefetch or cross-site page starts it.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { env, ctx } = context.cloudflare;
  requireSameOrigin(request);
  const user = await getUser(request, env);
  if (!user) return plain("Sign in to download your data.", 401);
  await readForm(request, { maxBytes: 1024 });
  const limit = await limitClient(request, env, { account: user.id }, (p) => ctx.waitUntil(p));
  if (!limit.allowed) return plain(limit.message, 429, { "Retry-After": String(limit.retryAfter) });
  return exportResponse(await exportMember(getDb(env), user), "afx-my-data");
}
