import type { CurrentUser } from "~/utils/user";

/**
 * The signed-in user of this request, or null. Sign-in (OpenID Connect, the session cookie) is
 * built in the sign-in issue; until then every visitor is anonymous.
 */
export async function getUser(_request: Request, _env: Env): Promise<CurrentUser | null> {
  return null;
}
