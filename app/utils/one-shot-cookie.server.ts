/**
 * Options of the short-lived signed cookies that carry one message across a redirect (a flash
 * toast, a no-JS signup result): read once on the next page, gone within a minute. Over HTTPS the
 * name takes the `__Host-` prefix, so no subdomain can set or shadow it.
 */
import { cookieSecrets } from "~/utils/session.server";

export function oneShotCookie(env: Pick<Env, "SESSION_SECRET">, request: Request, name: string) {
  const secure = new URL(request.url).protocol === "https:";
  return {
    name: secure ? `__Host-${name}` : name,
    httpOnly: true,
    sameSite: "lax" as const,
    secure,
    path: "/",
    maxAge: 60,
    secrets: cookieSecrets(env),
  };
}
