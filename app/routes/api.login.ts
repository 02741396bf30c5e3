import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { getUser } from "~/features/auth/users.server";
import { safeReturnTo, startSignIn } from "~/features/auth/oidc.server";

/** `GET /api/login?returnTo=/path`: starts sign-in at the OpenID provider (a full navigation). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  // Already signed in: nothing to do but go where they wanted.
  if (await getUser(request, env)) {
    return redirect(safeReturnTo(new URL(request.url).searchParams.get("returnTo"), request.url));
  }
  return startSignIn(request, env);
}
