import { env } from "cloudflare:test";
import { createCookieSessionStorage } from "@remix-run/cloudflare";
import { eq } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { users } from "~/db/schema";
import { requireAdmin } from "~/features/auth/guard.server";
import { getDb } from "~/utils/db.server";
import {
  finishSignIn,
  forgetProviders,
  safeReturnTo,
  SIGN_IN_CANCELLED,
  startSignIn,
} from "~/features/auth/oidc.server";
import { readSession, SESSION_MAX_AGE_S } from "~/features/auth/session.server";
import { withBindings } from "~/utils/config.server";
import { atProvider, flashToastOf, get, Jar, ORIGIN, signIn, startLogin } from "./auth-helpers";
import { expectDefined } from "../fixtures/expect-defined";

const h1 = (html: string) =>
  html
    .match(/<h1[^>]*>([\s\S]*?)<\/h1>/)?.[1]
    ?.replace(/<[^>]+>/g, "")
    .trim();
const setCookies = (res: Response) => res.headers.getSetCookie();
const findCookie = (res: Response, prefix: string) => setCookies(res).find((c) => c.startsWith(prefix));

describe("GET /api/login", () => {
  it("redirects to the discovered authorization endpoint with PKCE (S256), state, nonce and openid scope", async () => {
    const { res, authorize } = await startLogin();
    expect(res.status).toBe(302);
    expect(authorize.origin).toBe(env.OAUTH_ISSUER);
    expect(authorize.pathname).toBe("/authorize");
    const q = authorize.searchParams;
    expect(q.get("response_type")).toBe("code");
    expect(q.get("client_id")).toBe(env.OAUTH_CLIENT_ID);
    expect(q.get("redirect_uri")).toBe(`${ORIGIN}/api/callback`);
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get("state")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get("nonce")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get("scope")?.split(" ")).toEqual(expect.arrayContaining(["openid", "email", "profile"]));
  });

  it("keeps the flow in a Secure, HttpOnly, __Host- state cookie on https", async () => {
    const { res } = await startLogin();
    const state = findCookie(res, "__Host-afx_oauth:");
    expect(state).toBeDefined();
    expect(state).toMatch(/; Secure/i);
    expect(state).toMatch(/; HttpOnly/i);
    expect(state).toMatch(/; SameSite=Lax/i);
    expect(state).toMatch(/; Path=\//i);
    expect(findCookie(res, "__Host-afx_return_to=")).toMatch(/; Secure/i);
  });

  it("uses plain cookie names without Secure on plain-http localhost", async () => {
    const res = await get("http://localhost:8787/api/login");
    expect(res.status).toBe(302);
    const state = findCookie(res, "afx_oauth:");
    expect(state).toBeDefined();
    expect(state).not.toMatch(/Secure/i);
    expect(new URL(res.headers.get("location")!).searchParams.get("redirect_uri")).toBe(
      "http://localhost:8787/api/callback",
    );
  });

  it("sends a signed-in visitor straight to returnTo", async () => {
    const { jar } = await signIn("already@example.com");
    const res = await get("/api/login?returnTo=/blog", jar);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/blog");
  });
});

describe("sign-in round trip against the local OpenID provider", () => {
  it("a member signs in, lands on returnTo and /api/auth/user answers them", async () => {
    const { res, jar } = await signIn("Member.One@Example.com", {
      name: "Ada Lovelace",
      returnTo: "/portfolio?x=1#top",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/portfolio?x=1#top");
    const me = await get("/api/auth/user", jar);
    expect(me.status).toBe(200);
    expect(me.headers.get("cache-control")).toContain("no-store");
    const user = await me.json<Record<string, unknown>>();
    expect(user).toMatchObject({
      role: "member",
      firstName: "Ada",
      lastName: "Lovelace",
      email: "member.one@example.com",
      profileImageUrl: null,
    });
    expect(Object.keys(user).sort()).toEqual([
      "createdAt",
      "email",
      "firstName",
      "id",
      "lastName",
      "profileImageUrl",
      "role",
    ]);
    expect(Date.parse(user.createdAt as string)).not.toBeNaN();
    const row = await getDb(env)
      .select()
      .from(users)
      .where(eq(users.id, user.id as string))
      .get();
    expect(row?.subject).toBe(`${new URL(env.OAUTH_ISSUER).host}|member.one@example.com`);
    expect(row?.lastLoginAt).toBeInstanceOf(Date);
  });

  it("the session cookie is signed, HttpOnly, SameSite=Lax, Secure, __Host- and lasts 30 days", async () => {
    const { res } = await signIn("cookie@example.com");
    const session = findCookie(res, "__Host-afx_session=")!;
    expect(session).toBeDefined();
    expect(session).toMatch(/; HttpOnly/i);
    expect(session).toMatch(/; Secure/i);
    expect(session).toMatch(/; SameSite=Lax/i);
    expect(session).toMatch(/; Path=\//i);
    expect(session).toContain(`Max-Age=${SESSION_MAX_AGE_S}`);
    expect(session).not.toContain("cookie@example.com");
    // The flow's cookies are removed once used.
    const cleared = setCookies(res).filter((c) => /^__Host-afx_(oauth:|return_to=)/.test(c));
    expect(cleared.length).toBe(2);
    for (const c of cleared) expect(c).toMatch(/Max-Age=0/);
  });

  it("admin@example.com (in ADMIN_EMAILS) is an admin; anyone else a member", async () => {
    expect(env.ADMIN_EMAILS.split(",")).toContain("admin@example.com");
    const admin = await signIn("admin@example.com");
    expect((await (await get("/api/auth/user", admin.jar)).json<{ role: string }>()).role).toBe("admin");
    const member = await signIn("someone@example.com");
    expect((await (await get("/api/auth/user", member.jar)).json<{ role: string }>()).role).toBe("member");
  });

  it("recomputes the role and profile at every sign-in (one row per provider account)", async () => {
    await signIn("promoted@example.com", { name: "Old Name" });
    await getDb(env).update(users).set({ role: "admin" }).where(eq(users.email, "promoted@example.com"));
    const again = await signIn("promoted@example.com", { name: "New Name" });
    const me = await (await get("/api/auth/user", again.jar)).json<{ role: string; firstName: string }>();
    expect(me).toMatchObject({ role: "member", firstName: "New" });
    const rows = await getDb(env).select().from(users).where(eq(users.email, "promoted@example.com"));
    expect(rows).toHaveLength(1);
  });

  it("an unsafe returnTo ends on /", async () => {
    for (const target of [
      "https://evil.example/",
      "//evil.example/x",
      "/\\evil.example",
      "javascript:alert(1)",
      "/api/logout",
    ]) {
      const { res } = await signIn("returnto@example.com", { returnTo: target });
      expect(res.headers.get("location"), target).toBe("/");
    }
  });
});

describe("safeReturnTo", () => {
  it.each([
    ["/portfolio", "/portfolio"],
    ["/a?b=1#c", "/a?b=1#c"],
    [null, "/"],
    ["", "/"],
    ["portfolio", "/"],
    ["https://afx.test/portfolio", "/"],
    ["//evil.example", "/"],
    ["/\\evil.example", "/"],
    ["/\t/evil.example", "/"],
    ["/api/callback?code=x", "/"],
  ])("%s → %s", (input, expected) => {
    expect(safeReturnTo(input, `${ORIGIN}/api/login`)).toBe(expected);
  });
});

describe("sessions", () => {
  it("/api/auth/user answers 401 { message } without a session", async () => {
    const res = await get("/api/auth/user");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: expect.any(String) });
  });

  it("a tampered session cookie is treated as signed out", async () => {
    const { jar } = await signIn("tamper@example.com");
    const name = "__Host-afx_session";
    const value = decodeURIComponent(jar.cookies.get(name)!);
    // Flip one character of the payload: the signature no longer matches.
    const i = 5;
    const flipped = value.slice(0, i) + (value[i] === "A" ? "B" : "A") + value.slice(i + 1);
    jar.cookies.set(name, encodeURIComponent(flipped));
    expect((await get("/api/auth/user", jar)).status).toBe(401);
    const home = await get("/", jar);
    expect(h1(await home.text())).not.toMatch(/Welcome back/);
    // A cookie signed with another secret is no better.
    const forged = createCookieSessionStorage({ cookie: { name, secrets: ["not-our-secret"] } });
    const s = await forged.getSession();
    s.set("userId", "anything");
    jar.cookies.set(name, expectDefined((await forged.commitSession(s)).split(";")[0]).slice(name.length + 1));
    expect((await get("/api/auth/user", jar)).status).toBe(401);
  });

  it("a session whose user was deleted is signed out", async () => {
    const { jar } = await signIn("deleted@example.com");
    await getDb(env).delete(users).where(eq(users.email, "deleted@example.com"));
    expect((await get("/api/auth/user", jar)).status).toBe(401);
  });

  it("rolls: a session older than a day is re-issued for another 30 days; a fresh one is not", async () => {
    const { jar } = await signIn("rolling@example.com");
    const fresh = await get("/", jar);
    expect(findCookie(fresh, "__Host-afx_session=")).toBeUndefined();

    const storage = createCookieSessionStorage({
      cookie: { name: "__Host-afx_session", secrets: [env.SESSION_SECRET] },
    });
    const session = await storage.getSession(`__Host-afx_session=${jar.cookies.get("__Host-afx_session")}`);
    session.set("renewedAt", Date.now() - 2 * 24 * 60 * 60 * 1000);
    jar.cookies.set(
      "__Host-afx_session",
      expectDefined((await storage.commitSession(session)).split(";")[0]).slice("__Host-afx_session=".length),
    );
    const page = await get("/portfolio", jar);
    const renewed = findCookie(page, "__Host-afx_session=");
    expect(renewed).toContain(`Max-Age=${SESSION_MAX_AGE_S}`);
    expect((await get("/api/auth/user", new Jar().update(page))).status).toBe(200);
  });

  it("a GET reads its session once for all its loaders; a POST, or a shared env, reads it each time", async () => {
    const { jar } = await signIn("read-once@example.com");
    // What Remix hands each loader: its own copy of the request, with the same cookie.
    const copy = (method = "GET") =>
      new Request(`${ORIGIN}/admin/leads`, { method, headers: { Cookie: jar.header() } });
    const requestEnv = withBindings(env, {});
    const first = readSession(copy(), requestEnv);
    expect(readSession(copy(), requestEnv)).toBe(first);
    expect((await first).user?.email).toBe("read-once@example.com");

    // Signed out elsewhere mid-request: this GET keeps its one answer, anything else asks D1 again.
    await getDb(env).delete(users).where(eq(users.email, "read-once@example.com"));
    expect((await readSession(copy(), requestEnv)).user?.email).toBe("read-once@example.com");
    expect((await readSession(copy("POST"), requestEnv)).user).toBeNull();
    expect((await readSession(copy(), env)).user).toBeNull();
    expect((await readSession(copy(), withBindings(env, {}))).user).toBeNull();
  });

  it("GET /api/logout ends the session and goes home", async () => {
    const { jar } = await signIn("logout@example.com");
    const res = await get("/api/logout", jar);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    expect(findCookie(res, "__Host-afx_session=")).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
    jar.update(res);
    expect(jar.cookies.has("__Host-afx_session")).toBe(false);
    expect((await get("/api/auth/user", jar)).status).toBe(401);
  });
});

describe("the signed-in home page", () => {
  it("/ and /home render the dashboard for a session, the landing page otherwise", async () => {
    const { jar } = await signIn("dash@example.com", { name: "Grace Hopper" });
    for (const path of ["/", "/home"]) {
      const html = await (await get(path, jar)).text();
      expect(h1(html)).toBe("Welcome back, Grace");
      expect(html).toContain("dash@example.com");
      expect(html).toMatch(/Member since <span[^>]*>[A-Z][a-z]+ \d{1,2}, \d{4}<\/span>/);
      expect(html).toContain("View Portfolio");
      expect(html).toContain('href="#portfolio"');
      expect(html).toContain('href="/api/logout"');
      expect(html).toContain("Log Out");
      expect(html).toContain("Your AFX Portfolio");
      expect(html).toMatch(/id="portfolio"/);
    }
    expect(h1(await (await get("/")).text())).not.toMatch(/Welcome back/);
  });

  it("says 'No email provided' when the provider gave no e-mail", async () => {
    const { jar } = await signIn("noemail@example.com");
    await getDb(env).update(users).set({ email: null, firstName: null }).where(eq(users.email, "noemail@example.com"));
    const html = await (await get("/", jar)).text();
    expect(h1(html)).toBe("Welcome back");
    expect(html).toContain("No email provided");
  });
});

describe("the admin guard", () => {
  const request = (jar?: Jar) => new Request(`${ORIGIN}/api/leads`, { headers: jar ? { Cookie: jar.header() } : {} });

  it("requireAdmin for JSON: 401 without a session, 403 for a member, the user for an admin", async () => {
    const anonymous = await requireAdmin(request(), env, { json: true }).catch((e: unknown) => e);
    expect(anonymous).toBeInstanceOf(Response);
    expect((anonymous as Response).status).toBe(401);
    expect(await (anonymous as Response).json()).toEqual({ message: expect.any(String) });

    const member = await signIn("guard-member@example.com");
    const forbidden = await requireAdmin(request(member.jar), env, { json: true }).catch((e: unknown) => e);
    expect((forbidden as Response).status).toBe(403);
    expect(await (forbidden as Response).json()).toEqual({ message: expect.any(String) });

    const admin = await signIn("admin@example.com");
    await expect(requireAdmin(request(admin.jar), env, { json: true })).resolves.toMatchObject({ role: "admin" });
  });

  it("requireAdmin for pages: only an admin; anyone else is thrown the not-found 404", async () => {
    const refusal = async (jar?: Jar) => (await requireAdmin(request(jar), env).catch((e: unknown) => e)) as Response;
    expect((await refusal()).status).toBe(404);
    const member = await signIn("guard-member2@example.com");
    expect((await refusal(member.jar)).status).toBe(404);
    const admin = await signIn("admin@example.com");
    expect(await requireAdmin(request(admin.jar), env)).toMatchObject({ email: "admin@example.com" });
  });

  it("/admin/leads is the not-found page (404) for anonymous visitors and members", async () => {
    const member = await signIn("guard-member3@example.com");
    for (const jar of [undefined, member.jar]) {
      const res = await get("/admin/leads", jar);
      expect(res.status).toBe(404);
      expect(h1(await res.text())).toBe("Page Not Found");
    }
  });

  it("an admin resource opened in a browser (a navigation) signed out or as a member is the not-found page, in HTML", async () => {
    const member = await signIn("guard-member4@example.com");
    const navigate = { "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document", "Sec-Fetch-Site": "none" };
    for (const jar of [undefined, member.jar]) {
      for (const headers of [navigate, { Accept: "text/html,application/xhtml+xml" }]) {
        const res = await get("/admin/leads.csv?source=footer", jar, { headers });
        expect(res.status).toBe(404);
        expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
        expect(res.headers.has("X-Not-Found-Page")).toBe(false);
        const html = await res.text();
        expect(h1(html)).toBe("Page Not Found");
        // It names the address that was opened, not the worker's internal one.
        expect(html).toMatch(/data-testid="attempted-path">\/admin\/leads\.csv</);
        // The footer form returns there too, never to the worker's internal address.
        expect(html).toContain('name="redirectTo" value="/admin/leads.csv"');
      }
    }
    // A script (no navigation) still gets the JSON answer.
    expect((await get("/admin/leads.csv")).headers.get("Content-Type")).toMatch(/json/);
  });
});

describe("a cancelled sign-in is no failure", () => {
  it("error=access_denied from the provider: back on the page it started from, with a neutral note", async () => {
    const { jar, authorize } = await startLogin("?returnTo=/portfolio");
    const url = new URL(authorize);
    url.searchParams.set("cancel", "1");
    const back = await fetch(url, { redirect: "manual" });
    const callback = new URL(back.headers.get("location")!);
    expect(callback.searchParams.get("error")).toBe("access_denied");
    const res = await get(callback.pathname + callback.search, jar);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/portfolio");
    expect(await flashToastOf(res)).toMatchObject({ ...SIGN_IN_CANCELLED });
    expect((await flashToastOf(res))?.variant).toBeUndefined();
    expect(findCookie(res, "__Host-afx_session=")).toBeUndefined();
    // The flow's cookies (the return path among them) are removed.
    expect(setCookies(res).some((c) => c.startsWith("__Host-afx_oauth:") && /Max-Age=0/.test(c))).toBe(true);
  });
});

describe("failures a person can cause end on / with a 'Sign-in failed' toast, never a 5xx", () => {
  async function expectFailedSignIn(res: Response, description?: RegExp) {
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    const toast = await flashToastOf(res);
    expect(toast?.title).toBe("Sign-in failed");
    if (description) expect(toast?.description).toMatch(description);
    expect(findCookie(res, "__Host-afx_session=")).toBeUndefined();
    // The toast renders on the home page it lands on (also without JavaScript).
    return toast;
  }

  it("no state cookie (callback opened in another browser, or cookies blocked)", async () => {
    const { authorize } = await startLogin();
    const callback = await atProvider(authorize, "nostate@example.com");
    await expectFailedSignIn(await get(callback.pathname + callback.search));
  });

  it("state mismatch (a forged or stale callback)", async () => {
    const { jar, authorize } = await startLogin();
    const callback = await atProvider(authorize, "mismatch@example.com");
    callback.searchParams.set("state", "forged-state");
    const res = await get(callback.pathname + callback.search, jar);
    await expectFailedSignIn(res);
    // The used flow's cookies are removed.
    expect(setCookies(res).some((c) => c.startsWith("__Host-afx_oauth:") && /Max-Age=0/.test(c))).toBe(true);
  });

  it("no state parameter at all does not start a new sign-in", async () => {
    const { jar } = await startLogin();
    await expectFailedSignIn(await get("/api/callback?code=abc", jar));
    await expectFailedSignIn(await get("/api/callback?error=access_denied", jar));
  });

  it("an invalid or expired code (the token endpoint refuses it)", async () => {
    const { jar, authorize } = await startLogin();
    const callback = await atProvider(authorize, "badcode@example.com");
    callback.searchParams.set("code", "00000000-0000-4000-8000-000000000000");
    await expectFailedSignIn(await get(callback.pathname + callback.search, jar));
  });

  it("a replayed code (already redeemed) is refused", async () => {
    const { jar, authorize } = await startLogin();
    const callback = await atProvider(authorize, "replay@example.com");
    const path = callback.pathname + callback.search;
    const replayJar = new Jar();
    for (const [k, v] of jar.cookies) replayJar.cookies.set(k, v);
    expect((await get(path, jar)).headers.get("location")).toBe("/");
    const res = await get(path, replayJar);
    await expectFailedSignIn(res);
  });

  it("the provider is down (discovery and token endpoint unreachable)", async () => {
    forgetProviders();
    const down = { ...env, OAUTH_ISSUER: "http://127.0.0.1:9" };
    const start = await startSignIn(new Request(`${ORIGIN}/api/login`), down);
    await expectFailedSignIn(start);

    // Down between the two legs: the callback cannot reach the provider either.
    const { jar, authorize } = await startLogin();
    const callback = await atProvider(authorize, "down@example.com");
    forgetProviders();
    const res = await finishSignIn(
      new Request(callback.href.replace(callback.origin, ORIGIN), { headers: { Cookie: jar.header() } }),
      down,
    );
    await expectFailedSignIn(res);
  });

  it("the provider stalls (discovery, or the token endpoint, never answers)", async () => {
    forgetProviders();
    const stalling = inject("stallingIssuer");
    await expectFailedSignIn(
      await startSignIn(new Request(`${ORIGIN}/api/login`), { ...env, OAUTH_ISSUER: `${stalling}/hang` }),
    );

    const slow = { ...env, OAUTH_ISSUER: stalling };
    const start = await startSignIn(new Request(`${ORIGIN}/api/login`), slow);
    expect(start.status).toBe(302);
    const state = new URL(start.headers.get("location")!).searchParams.get("state");
    const jar = new Jar().update(start);
    const res = await finishSignIn(
      new Request(`${ORIGIN}/api/callback?code=abc&state=${state}`, { headers: { Cookie: jar.header() } }),
      slow,
    );
    await expectFailedSignIn(res);
  }, 20_000);
});

describe("the lead endpoints behind the guard, with real sessions", () => {
  it.each(["/api/leads", "/api/leads/stats", "/admin/leads.csv"])(
    "%s: 403 { message } for a member, 200 for an admin",
    async (path) => {
      await env.DB.prepare(
        "INSERT OR IGNORE INTO leads (email, first_name, source, status) VALUES ('lead@example.com', 'L', 'footer', 'confirmed')",
      ).run();
      const member = await signIn("lead-member@example.com");
      const forbidden = await get(path, member.jar);
      expect(forbidden.status).toBe(403);
      expect(forbidden.headers.get("cache-control")).toBe("no-store");
      expect(await forbidden.json()).toEqual({ message: expect.any(String) });
      const admin = await signIn("admin@example.com");
      const ok = await get(path, admin.jar);
      expect(ok.status).toBe(200);
      await ok.arrayBuffer();
    },
  );

  it("/admin/leads renders the dashboard for an admin only", async () => {
    const admin = await signIn("admin@example.com");
    const res = await get("/admin/leads", admin.jar);
    expect(res.status).toBe(200);
    expect(h1(await res.text())).not.toBe("Page Not Found");
  });
});
