import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { endSession } from "~/utils/session.server";

/** `GET /api/logout`: ends the session and goes home (a full navigation, SPEC.md §2). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return redirect("/", {
    headers: { "Set-Cookie": await endSession(request, context.cloudflare.env), "Cache-Control": "no-store" },
  });
}
