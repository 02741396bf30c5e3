import { createCookieSessionStorage, redirect } from "@remix-run/cloudflare";
import { carriesCookie, COOKIES } from "~/utils/cookies.server";
import { oneShotCookie } from "./one-shot-cookie.server";
import type { ToastMessage } from "~/utils/toast";

/**
 * A one-shot toast carried across a redirect in its own short-lived signed cookie, so an action
 * (or a failed sign-in) can show a toast on the next page, also with JavaScript off.
 */
function flashStorage(env: Env, request: Request) {
  return createCookieSessionStorage<Record<string, never>, { toast: ToastMessage }>({
    cookie: oneShotCookie(env, request, COOKIES.flash),
  });
}

/** Headers that set a toast for the next page view. */
export async function toastHeaders(env: Env, request: Request, toast: ToastMessage) {
  const storage = flashStorage(env, request);
  const session = await storage.getSession();
  session.flash("toast", toast);
  return new Headers({ "Set-Cookie": await storage.commitSession(session) });
}

export async function redirectWithToast(
  env: Env,
  request: Request,
  url: string,
  toast: ToastMessage,
  init: ResponseInit = {},
) {
  const headers = new Headers(init.headers);
  for (const [k, v] of await toastHeaders(env, request, toast)) headers.append(k, v);
  return redirect(url, { ...init, headers });
}

/** Reads (and consumes) the pending toast; pass `headers` on so the cookie is cleared. */
export async function getFlashToast(env: Env, request: Request) {
  // Every page view asks; almost none carries a toast, and those need no session storage built.
  if (!carriesCookie(request, COOKIES.flash)) return { toast: null, headers: null };
  const storage = flashStorage(env, request);
  const session = await storage.getSession(request.headers.get("Cookie"));
  const toast = session.get("toast") ?? null;
  const headers = toast ? new Headers({ "Set-Cookie": await storage.destroySession(session) }) : null;
  return { toast, headers };
}
