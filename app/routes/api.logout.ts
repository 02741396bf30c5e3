import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { readForm } from "~/features/forms/body.server";
import { redirectWithToast } from "~/utils/flash.server";
import { limitClient } from "~/features/forms/rate-limit.server";
import { requireSameOrigin } from "~/features/forms/same-origin.server";
import { endSession } from "~/features/auth/session.server";
import { getUser } from "~/features/auth/users.server";

/** `GET /api/logout`: ends this session on the server and goes home (a full navigation). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return redirect("/", {
    headers: { "Set-Cookie": await endSession(request, context.cloudflare.env), "Cache-Control": "no-store" },
  });
}

/**
 * `POST /api/logout` with `everywhere=on` (Settings' "Sign out everywhere"): ends every session of
 * the member, on every device, then lands on `/` with a toast. A plain POST ends this one only.
 * Another site's form is refused (403) like every other POST. Only a member's request counts
 * against the account limit: a visitor without a session has nothing to end, and must not use up
 * the members' shared ceiling.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  requireSameOrigin(request);
  const form = await readForm(request, { maxBytes: 1024 });
  if (await getUser(request, env)) {
    const limit = await limitClient(request, env, "account", (p) => context.cloudflare.ctx.waitUntil(p));
    if (!limit.allowed) throw new Response(limit.message, { status: 429, headers: { "Retry-After": String(limit.retryAfter) } });
  }
  const everywhere = form.get("everywhere") === "on";
  const cookie = await endSession(request, env, { everywhere });
  return redirectWithToast(
    env,
    request,
    "/",
    { title: everywhere ? "Signed out everywhere" : "Signed out", description: everywhere ? "Every session of your account has ended." : undefined },
    { headers: { "Set-Cookie": cookie, "Cache-Control": "no-store" } },
  );
}
