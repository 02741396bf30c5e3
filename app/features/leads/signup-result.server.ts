import { COOKIES } from "~/utils/cookies.server";
import { oneShotCookie } from "../../utils/one-shot-cookie.server";
import {
  LEAD_LIMITS,
  SIGNUP_TEXT_FIELDS,
  type SignupResult,
  type SignupTextField,
  type SignupValues,
} from "~/features/leads/newsletter";

/**
 * The outcome of a newsletter form post without JavaScript, carried across the 303 to the page it
 * came from in a short-lived signed cookie and shown once (the root loader reads and clears it).
 */
function resultCookie(env: Env, request: Request) {
  return oneShotCookie(env, request, COOKIES.signupResult);
}

/**
 * Typed values are kept but bounded, so the cookie stays well under 4 KB: each to one character
 * past its field's limit (the e-mail's, an optional text field's own, a name's for the first
 * name), so "too long" still shows.
 */
function bounded(result: SignupResult): SignupResult {
  if (!("values" in result)) return result;
  const limit = (field: string) =>
    field === "email"
      ? LEAD_LIMITS.email
      : field in SIGNUP_TEXT_FIELDS
        ? SIGNUP_TEXT_FIELDS[field as SignupTextField].max
        : LEAD_LIMITS.name;
  const values = Object.entries(result.values).map(([field, value]) => [field, value.slice(0, limit(field) + 1)]);
  return { ...result, values: Object.fromEntries(values) as SignupValues };
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
