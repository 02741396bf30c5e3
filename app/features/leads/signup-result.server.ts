import { COOKIES } from "~/utils/cookies.server";
import { oneShotCookie } from "../../utils/one-shot-cookie.server";
import { LEAD_LIMITS, type SignupResult } from "~/features/leads/newsletter";

/**
 * The outcome of a newsletter form post without JavaScript, carried across the 303 to the page it
 * came from in a short-lived signed cookie and shown once (the root loader reads and clears it).
 */
function resultCookie(env: Env, request: Request) {
  return oneShotCookie(env, request, COOKIES.signupResult);
}

/** Typed values are kept but bounded, so the cookie stays well under 4 KB. */
function bounded(result: SignupResult): SignupResult {
  if (!("values" in result)) return result;
  return {
    ...result,
    values: {
      email: result.values.email.slice(0, LEAD_LIMITS.email + 1),
      firstName: result.values.firstName.slice(0, LEAD_LIMITS.name + 1),
      lastName: result.values.lastName.slice(0, LEAD_LIMITS.name + 1),
    },
  };
}

export async function signupResultCookie(env: Env, request: Request, result: SignupResult) {
  return resultCookie(env, request).serialize(bounded(result));
}

/** The pending result (if any) and the header that clears it. */
export async function readSignupResult(
  env: Env,
  request: Request,
): Promise<{ result: SignupResult | null; headers: Headers | null }> {
  const cookie = resultCookie(env, request);
  const header = request.headers.get("Cookie");
  if (!header?.includes(cookie.name)) return { result: null, headers: null };
  const value = (await cookie.parse(header)) as SignupResult | null;
  const headers = new Headers({ "Set-Cookie": await cookie.serialize("", { maxAge: 0 }) });
  return { result: value && typeof value === "object" && "status" in value ? value : null, headers };
}
