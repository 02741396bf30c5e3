import { getUser } from "~/features/auth/users.server";
import { isAdmin, type CurrentUser } from "~/features/auth/user";
import { isNavigation, NOT_FOUND_PAGE_HEADER } from "~/utils/not-found-page";
import { BARE_NO_STORE, NO_STORE } from "~/utils/no-store";

/** An admin: the role needs a verified address listed in ADMIN_EMAILS, so there always is an e-mail. */
export type Admin = CurrentUser & { role: "admin"; email: string };

/**
 * The one admin guard: every admin loader, action and resource route begins with it, and anyone
 * but an admin is refused with a thrown Response, so nothing after it runs.
 * - Pages and their form actions (the default): 404, rendered as the not-found page by the root
 *   error boundary, as if the page did not exist (docs/product.md, Pages).
 * - JSON and file endpoints (`{ json: true }`: the leads API, the CSV, the person export): 401
 *   `{ message }` without a session, 403 for a signed-in non-admin (docs/product.md, Leads API),
 *   thrown as a real Response since a thrown `data()` in a resource route loses its message. A
 *   browser's navigation there (its address opened or followed) gets the not-found page, as a
 *   page would (utils/not-found-page.ts).
 */
export async function requireAdmin(
  request: Request,
  env: Env,
  { json = false }: { json?: boolean } = {},
): Promise<Admin> {
  const user = await getUser(request, env);
  if (isAdmin(user) && user?.email) return user as Admin;
  if (!json) throw new Response("Not Found", { status: 404, headers: NO_STORE });
  if (isNavigation(request))
    throw new Response(null, {
      status: 404,
      headers: { ...NO_STORE, [NOT_FOUND_PAGE_HEADER]: "1" },
    });
  throw user
    ? Response.json({ message: "Admin access required" }, { status: 403, headers: { "Cache-Control": BARE_NO_STORE } })
    : Response.json(
        { message: "Authentication required" },
        { status: 401, headers: { "Cache-Control": BARE_NO_STORE } },
      );
}
