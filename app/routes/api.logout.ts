import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { readForm } from "~/features/forms/body.server";
import { redirectWithToast } from "~/utils/flash.server";
import { isCrossSite, requireNotSubresource, requireSameOrigin } from "~/features/forms/same-origin.server";
import { endSession } from "~/features/auth/session.server";
import { BARE_NO_STORE } from "~/utils/no-store";

/**
 * `GET /api/logout` (the sidebar's Log Out link, a full navigation): ends this session on the
 * server and goes home. A navigation from another site (`Sec-Fetch-Site: cross-site`) ends nothing
 * and goes home too (docs/decisions/059-limits-gets-and-revocation.md): the member is still signed in,
 * one click from the sidebar's own Log Out link. A subresource (an `<img>` or `<script>` pointed at
 * it, even on our own pages) gets a 403 and ends nothing.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  requireNotSubresource(request);
  if (isCrossSite(request)) return redirect("/", { headers: { "Cache-Control": BARE_NO_STORE } });
  return redirect("/", {
    headers: { "Set-Cookie": await endSession(request, context.cloudflare.env), "Cache-Control": BARE_NO_STORE },
  });
}

/**
 * `POST /api/logout` with `everywhere=on` (Settings' "Sign out everywhere"): ends every session of
 * the member, on every device, then lands on `/` with a toast. A plain POST ends this one only.
 * Another site's form is refused (403) like every other POST. No rate limit: ending a session is
 * never refused, and each one needs a live session, which only a sign-in makes.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  requireSameOrigin(request);
  const form = await readForm(request, { maxBytes: 1024 });
  const everywhere = form.get("everywhere") === "on";
  const cookie = await endSession(request, env, { everywhere });
  return redirectWithToast(
    env,
    request,
    "/",
    {
      title: everywhere ? "Signed out everywhere" : "Signed out",
      description: everywhere ? "Every session of your account has ended." : undefined,
    },
    { headers: { "Set-Cookie": cookie, "Cache-Control": BARE_NO_STORE } },
  );
}
