/**
 * Options of the short-lived signed cookies that carry one message across a redirect (a flash
 * toast, a no-JS signup result): read once on the next page, gone within a minute. Named and
 * flagged by the one cookie rule (cookies.server.ts).
 */
import { signedCookie, type COOKIES } from "~/utils/cookies.server";

export function oneShotCookie(env: Env, request: Request, base: typeof COOKIES.flash | typeof COOKIES.signupResult) {
  return signedCookie(request, env, base, 60);
}
