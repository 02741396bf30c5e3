import { env, SELF } from "cloudflare:test";
import { getFlashToast } from "~/utils/flash.server";
import { ORIGIN } from "../fixtures/origin";
import { expectDefined } from "../fixtures/expect-defined";

export { ORIGIN };

/** A browser's cookie jar, enough for one origin. */
export class Jar {
  readonly cookies = new Map<string, string>();
  update(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const i = expectDefined(pair).indexOf("=");
      const name = expectDefined(pair).slice(0, i).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, expectDefined(pair).slice(i + 1));
    }
    return this;
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
  names() {
    return [...this.cookies.keys()];
  }
}

export function get(path: string, jar?: Jar, init: RequestInit = {}) {
  const url = path.startsWith("http") ? path : `${ORIGIN}${path}`;
  return SELF.fetch(url, {
    redirect: "manual",
    ...init,
    headers: { ...(jar ? { Cookie: jar.header() } : {}), ...(init.headers as Record<string, string>) },
  });
}

/** `/api/login`: the redirect to the provider, and the jar holding the flow's cookies. */
export async function startLogin(query = "", jar = new Jar()) {
  const res = await get(`/api/login${query}`, jar);
  jar.update(res);
  return { res, jar, authorize: new URL(res.headers.get("location") ?? "about:blank") };
}

/** The person at the provider's sign-in page: types an e-mail (and a name), is sent back. */
export async function atProvider(authorize: URL, email: string, name = "") {
  const url = new URL(authorize);
  url.searchParams.set("login_email", email);
  if (name) url.searchParams.set("login_name", name);
  const res = await fetch(url, { redirect: "manual" });
  await res.arrayBuffer();
  if (res.status !== 302) throw new Error(`provider answered ${res.status}`);
  return new URL(res.headers.get("location")!);
}

/** A whole sign-in; returns the callback's response and the jar with the session. */
export async function signIn(email: string, { name = "", returnTo = "" } = {}) {
  const { jar, authorize } = await startLogin(returnTo ? `?returnTo=${encodeURIComponent(returnTo)}` : "");
  const callback = await atProvider(authorize, email, name);
  const res = await get(callback.pathname + callback.search, jar);
  jar.update(res);
  return { res, jar };
}

/** The toast a redirect carries in its flash cookie. */
export async function flashToastOf(res: Response) {
  const jar = new Jar().update(res);
  const { toast } = await getFlashToast(env, new Request(`${ORIGIN}/`, { headers: { Cookie: jar.header() } }));
  return toast;
}
