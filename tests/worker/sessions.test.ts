// Sessions end on the server: only a hash in D1, idle and absolute limits, logout (and its origin
// check), 'Sign out everywhere', the admin role decided on every request, secret rotation; and a
// member's responses are never cached. Each test failed on the code before its fix.
import { env } from "cloudflare:test";
import { createCookieSessionStorage } from "@remix-run/cloudflare";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sessions, users } from "~/db/schema";
import { requireAdmin } from "~/features/auth/guard.server";
import { getDb } from "~/utils/db.server";
import { get, Jar, ORIGIN, signIn } from "./auth-helpers";
import { expectDefined } from "../fixtures/expect-defined";

const SESSION = "__Host-afx_session";
const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
});
const status = async (path: string, jar: Jar) => (await get(path, jar)).status;

describe("sessions end on the server", () => {
  const sessionRow = async (email: string) => {
    const user = await getDb(env).select().from(users).where(eq(users.email, email)).get();
    return getDb(env).select().from(sessions).where(eq(sessions.userId, user!.id));
  };

  it("D1 keeps only a hash of the cookie's token", async () => {
    const { jar } = await signIn("hash@example.com");
    const rows = await sessionRow("hash@example.com");
    expect(rows).toHaveLength(1);
    expect(expectDefined(rows[0]).id).toMatch(/^[0-9a-f]{64}$/);
    expect(decodeURIComponent(jar.cookies.get(SESSION)!)).not.toContain(expectDefined(rows[0]).id);
  });

  it("an old-style cookie (a signed user id, no server session) is refused", async () => {
    const { jar } = await signIn("legacy@example.com");
    const me = await (await get("/api/auth/user", jar)).json<{ id: string }>();
    const legacy = createCookieSessionStorage({ cookie: { name: SESSION, secrets: [env.SESSION_SECRET] } });
    const s = await legacy.getSession();
    s.set("userId", me.id);
    s.set("renewedAt", Date.now());
    const old = new Jar();
    old.cookies.set(SESSION, expectDefined((await legacy.commitSession(s)).split(";")[0]).slice(SESSION.length + 1));
    expect(await status("/api/auth/user", old)).toBe(401);
  });

  it("a session idle for more than 30 days is refused, its row deleted and its cookie removed", async () => {
    const { jar } = await signIn("idle@example.com");
    const [row] = await sessionRow("idle@example.com");
    await getDb(env)
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 31 * 86_400_000) })
      .where(eq(sessions.id, expectDefined(row).id));
    const res = await get("/", jar);
    expect(res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION}=`))).toMatch(
      /Max-Age=0|Expires=Thu, 01 Jan 1970/i,
    );
    expect(await status("/api/auth/user", jar)).toBe(401);
    expect(await sessionRow("idle@example.com")).toHaveLength(0);
  });

  it("a session older than the absolute limit is refused however active it is", async () => {
    const { jar } = await signIn("absolute@example.com");
    const [row] = await sessionRow("absolute@example.com");
    await getDb(env)
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 91 * 86_400_000) })
      .where(eq(sessions.id, expectDefined(row).id));
    expect(await status("/api/auth/user", jar)).toBe(401);
  });

  it("a logged-out cookie, replayed, is refused", async () => {
    const { jar } = await signIn("replayed@example.com");
    const copy = new Jar();
    for (const [k, v] of jar.cookies) copy.cookies.set(k, v);
    await get("/api/logout", jar);
    expect(await status("/api/auth/user", copy)).toBe(401);
  });

  it("'Sign out everywhere' ends every session of the member, and only theirs", async () => {
    const laptop = await signIn("everywhere@example.com");
    const phone = await signIn("everywhere@example.com");
    const other = await signIn("bystander@example.com");
    const res = await get("/api/logout", laptop.jar, form({ everywhere: "on" }));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    expect(res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION}=`))).toMatch(
      /Max-Age=0|Expires=Thu, 01 Jan 1970/i,
    );
    expect(await status("/api/auth/user", laptop.jar)).toBe(401);
    expect(await status("/api/auth/user", phone.jar)).toBe(401);
    expect(await status("/api/auth/user", other.jar)).toBe(200);
    // Settings offers it to a member.
    expect(await (await get("/settings", other.jar)).text()).toContain('action="/api/logout"');
  });

  it("an admin removed from ADMIN_EMAILS, or whose e-mail is no longer verified, is refused at once", async () => {
    const { jar } = await signIn("admin@example.com");
    const request = new Request(`${ORIGIN}/api/leads`, { headers: { Cookie: jar.header() } });
    await expect(requireAdmin(request, env, { json: true })).resolves.toMatchObject({ role: "admin" });
    const delisted = await requireAdmin(
      request,
      { ...env, ADMIN_EMAILS: "someone-else@example.com" },
      { json: true },
    ).catch((e: unknown) => e);
    expect((delisted as Response).status).toBe(403);
    await getDb(env).update(users).set({ emailVerified: false }).where(eq(users.email, "admin@example.com"));
    try {
      const unverified = await requireAdmin(request, env, { json: true }).catch((e: unknown) => e);
      expect((unverified as Response).status).toBe(403);
    } finally {
      await getDb(env).update(users).set({ emailVerified: true }).where(eq(users.email, "admin@example.com"));
    }
  });

  it("SESSION_SECRET rotation: a cookie signed with the previous secret still works; new cookies use the newest", async () => {
    const { jar } = await signIn("rotation@example.com");
    const rotated = { ...env, SESSION_SECRET: `brand-new-secret-of-the-group,${env.SESSION_SECRET}` };
    const request = new Request(`${ORIGIN}/api/leads`, { headers: { Cookie: jar.header() } });
    const refused = await requireAdmin(request, rotated, { json: true }).catch((e: unknown) => e);
    // Signed in (403: a member, not 401: a stranger).
    expect((refused as Response).status).toBe(403);
    const onlyNew = await requireAdmin(
      request,
      { ...env, SESSION_SECRET: "brand-new-secret-of-the-group" },
      { json: true },
    ).catch((e: unknown) => e);
    expect((onlyNew as Response).status).toBe(401);
  });
});

describe("a member's responses are never cached anywhere", () => {
  it.each(["/", "/portfolio", "/portfolio?_data=routes%2Fportfolio", "/settings", "/blog", "/api/auth/user"])(
    "%s for a member: private, no-store",
    async (path) => {
      const { jar } = await signIn("personal@example.com");
      const res = await get(path, jar, { headers: { Accept: "text/html" } });
      await res.arrayBuffer();
      expect(res.headers.get("cache-control")).toBe("private, no-store");
    },
  );

  it("the admin dashboard too", async () => {
    const { jar } = await signIn("admin@example.com");
    const res = await get("/admin/leads", jar);
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
  });
});

describe("POST /api/logout checks the origin like every other POST", () => {
  it("a cross-site logout is a 403 and the session lives on", async () => {
    const { jar } = await signIn("stays@example.com");
    for (const headers of [{ Origin: "https://evil.example" }, { "Sec-Fetch-Site": "cross-site" }] as Record<
      string,
      string
    >[]) {
      const res = await get("/api/logout", jar, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
        body: "everywhere=on",
      });
      expect(res.status).toBe(403);
      expect(res.headers.getSetCookie().join()).not.toMatch(/afx_session=;/);
    }
    expect((await get("/api/auth/user", jar)).status).toBe(200);
  });
});
