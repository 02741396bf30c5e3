import { getUser } from "~/features/auth/users.server";
import { isAdmin, type CurrentUser } from "~/features/auth/user";

/**
 * The one guard for admin-only data (docs/decisions/004-sign-in.md): lead JSON endpoints and the CSV
 * export answer 401 without a session and 403 for a signed-in non-admin, as `{ message }`.
 * It throws a real Response: a thrown `data()` in a resource route turns into a generic 500-style
 * error body and loses the message.
 */
export async function requireAdminApi(request: Request, env: Env): Promise<CurrentUser> {
  const user = await getUser(request, env);
  if (!user) throw refusal("Authentication required", 401);
  if (!isAdmin(user)) throw refusal("Admin access required", 403);
  return user;
}

function refusal(message: string, status: 401 | 403) {
  return Response.json({ message }, { status, headers: { "Cache-Control": "no-store" } });
}

/**
 * For admin pages: the user when they are an admin, otherwise null and the page renders the
 * not-found page with a 404 (docs/product.md, Pages: `/admin/leads` is not-found for anyone else).
 */
export async function getAdminOrNull(request: Request, env: Env): Promise<CurrentUser | null> {
  const user = await getUser(request, env);
  return isAdmin(user) ? user : null;
}
