import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { finishSignIn } from "~/features/auth/oidc.server";

/** `GET /api/callback`: the provider sends the browser back here with `code` and `state`. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return finishSignIn(request, context.cloudflare.env);
}
