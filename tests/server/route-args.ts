// Calls a route module's loader or action as Remix would, with no build and no entry: the request,
// its params and the load context the worker builds (worker/load-context.ts) over this workerd's
// real bindings (D1, the mail queue, R2 where bound).
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getLoadContext } from "../../worker/load-context";
import { startSession } from "~/features/auth/session.server";
import { upsertUser } from "~/features/auth/users.server";
import { ORIGIN } from "../fixtures/origin";

export { ORIGIN };

type Args = LoaderFunctionArgs & ActionFunctionArgs;
type Handler<T> = (args: Args) => T | Promise<T>;

export interface Call {
  path: string;
  method?: string;
  params?: Record<string, string>;
  /** A form body (URL-encoded; pairs for a repeated field), or JSON for anything else. */
  form?: Record<string, string> | [string, string][];
  json?: unknown;
  /** A multipart/form-data body (a file upload); the request gives it its boundary. */
  multipart?: FormData;
  headers?: Record<string, string>;
  /** A session cookie (`signedIn()`), sent as a browser would. */
  cookie?: string;
}

/** The request a browser on the site would send: same-origin for a POST, from a fixed client address. */
export function routeRequest({ path, method, form, json, multipart, headers = {}, cookie }: Call): Request {
  const body =
    multipart ?? (form ? new URLSearchParams(form).toString() : json === undefined ? undefined : JSON.stringify(json));
  const verb = method ?? (body === undefined ? "GET" : "POST");
  return new Request(`${ORIGIN}${path}`, {
    method: verb,
    body,
    headers: {
      "CF-Connecting-IP": "198.51.100.7",
      ...(verb === "POST" ? { Origin: ORIGIN, "Sec-Fetch-Site": "same-origin" } : {}),
      ...(form ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
      ...(json !== undefined ? { "Content-Type": "application/json" } : {}),
      ...(cookie ? { Cookie: cookie } : {}),
      ...headers,
    },
  });
}

/**
 * Runs `handler` (a module's `loader` or `action`) and answers what it returned or threw, as a
 * Response when it is one (a thrown redirect or 404 is the answer a visitor gets). Work the route
 * handed to `waitUntil` has finished when this returns.
 */
export async function callRoute<T>(handler: Handler<T>, call: Call): Promise<T | Response> {
  const request = routeRequest(call);
  const ctx = createExecutionContext();
  const context = getLoadContext({
    request,
    context: { cloudflare: { env, ctx, cf: {}, caches } as never },
  });
  try {
    return await handler({ request, params: call.params ?? {}, context } as Args);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  } finally {
    await waitOnExecutionContext(ctx);
  }
}

/** The answer as a Response (Remix's `json()`/`redirect()` are Responses; plain data becomes JSON). */
export function asResponse(answer: unknown): Response {
  return answer instanceof Response ? answer : Response.json(answer);
}

/** Signs `email` in without the provider (a verified address; admin@example.com is in ADMIN_EMAILS): its session cookie. */
export async function signedIn(email: string, name = "Test Person"): Promise<string> {
  const [firstName, lastName = ""] = name.split(" ");
  const user = await upsertUser(env, {
    subject: `test|${email}`,
    email,
    emailVerified: true,
    firstName: firstName ?? "",
    lastName,
    profileImageUrl: null,
  });
  const setCookie = await startSession(new Request(ORIGIN), env, user.id);
  return setCookie.split(";")[0] ?? "";
}

export const ADMIN = "admin@example.com";
