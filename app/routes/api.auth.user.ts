import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getUserAndSession } from "~/features/auth/users.server";
import { PRIVATE_NO_STORE } from "~/utils/no-store";

/** `GET /api/auth/user`: the current user, or 401 `{ message }`. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, headers } = await getUserAndSession(request, context.cloudflare.env);
  // A resource route answers a Response: `data()` here would lose its status and headers.
  const out = new Headers(headers);
  out.set("Cache-Control", PRIVATE_NO_STORE);
  if (!user) return Response.json({ message: "Not authenticated" }, { status: 401, headers: out });
  const { id, role, firstName, lastName, email, profileImageUrl, createdAt } = user;
  return Response.json({ id, role, firstName, lastName, email, profileImageUrl, createdAt }, { headers: out });
}
