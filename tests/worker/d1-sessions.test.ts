// Reads from the nearest replica (docs/decisions/020-d1-read-replicas.md): every request runs in one
// D1 session; a response that wrote carries the session's bookmark in a signed cookie, and the
// visitor's next read starts from it. Locally there is no replica, but workerd's binding and
// miniflare's D1 do keep and return bookmarks, so the round trip is real.
import { env, SELF } from "cloudflare:test";
import { createCookie } from "@remix-run/cloudflare";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { leads } from "~/db/schema";
import { readConfig, withBindings } from "~/utils/config.server";
import { cookieName, cookieOptions, COOKIES } from "~/utils/cookies.server";
import { getDb } from "~/utils/db.server";
import { BOOKMARK_MAX_AGE_S, openRequestDb, RequestDb } from "~/utils/d1-session.server";
import { get, Jar, signIn } from "./auth-helpers";
import { nextAddress, ORIGIN, postJson, signup } from "./leads-helpers";
import { expectDefined } from "../fixtures/expect-defined";

const NAME = `__Host-${COOKIES.d1Bookmark}`;
const HTML = { Accept: "text/html,application/xhtml+xml" };
const BOOKMARK = /^[0-9a-f]{8}(?:-[0-9a-f]{8}){2}-[0-9a-f]{16,64}$/;

/** The bookmark cookie's Set-Cookie line on a response, if any. */
const bookmarkLine = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith(`${NAME}=`));

/** The bookmark a Set-Cookie line carries, read as the worker reads it (signature checked). */
async function bookmarkOf(line: string): Promise<unknown> {
  const request = new Request(ORIGIN);
  return createCookie(cookieName(request, COOKIES.d1Bookmark), cookieOptions(request, env, BOOKMARK_MAX_AGE_S)).parse(
    line.split(";")[0] ?? "",
  );
}

/** A cookie the worker would accept, for a value of our choosing. */
async function signedCookie(value: unknown): Promise<string> {
  const request = new Request(ORIGIN);
  const line = await createCookie(
    cookieName(request, COOKIES.d1Bookmark),
    cookieOptions(request, env, BOOKMARK_MAX_AGE_S),
  ).serialize(value);
  const [pair = ""] = line.split(";");
  return pair;
}

/** The database's latest bookmark, as the primary knows it now. */
async function latestBookmark(): Promise<string> {
  const session = env.DB.withSession("first-primary");
  await session.prepare("SELECT 1").run();
  return session.getBookmark()!;
}

const page = (path: string, cookie?: string) =>
  SELF.fetch(`${ORIGIN}${path}`, { headers: { ...HTML, ...(cookie ? { Cookie: cookie } : {}) }, redirect: "manual" });
const cacheOf = (res: Response) => res.headers.get("server-timing")?.match(/desc="(\w+)"/)?.[1];

describe("a response that wrote carries the session's bookmark", () => {
  it("a signup: a signed, short-lived, HttpOnly cookie newer than the database before the write", async () => {
    const before = await latestBookmark();
    const res = await postJson(signup({ email: `bookmark-${crypto.randomUUID()}@example.com` }));
    expect(res.status).toBe(201);
    const line = bookmarkLine(res)!;
    expect(line).toBeDefined();
    const attrs = line.split(";").map((a) => a.trim().toLowerCase());
    expect(attrs).toEqual(
      expect.arrayContaining(["httponly", "samesite=lax", "path=/", "secure", `max-age=${BOOKMARK_MAX_AGE_S}`]),
    );
    const bookmark = await bookmarkOf(line);
    expect(bookmark).toMatch(BOOKMARK);
    // Bookmarks sort oldest to newest: this one is from after the signup's write.
    expect((bookmark as string) > before).toBe(true);
    expect((bookmark as string) <= (await latestBookmark())).toBe(true);
  });

  it("the sign-in callback, a settings save and an admin action set it; the pages in between do not", async () => {
    const { res: callback, jar } = await signIn("bookmark-member@example.com");
    expect(bookmarkLine(callback)).toBeDefined();
    jar.cookies.delete(NAME);

    const settings = await get("/settings", jar);
    expect(settings.status).toBe(200);
    expect(bookmarkLine(settings)).toBeUndefined();

    const save = await get("/settings", jar, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": nextAddress() },
      body: new URLSearchParams({ newsletter: "on" }).toString(),
    });
    expect(save.status).toBe(200);
    expect(await bookmarkOf(bookmarkLine(save)!)).toMatch(BOOKMARK);

    const admin = (await signIn("admin@example.com")).jar;
    admin.cookies.delete(NAME);
    const { meta } = await env.DB.prepare(
      "INSERT INTO contact_messages (name, email, subject, message, created_at) VALUES ('B', 'b@example.com', 'Bookmark', 'Hi', ?)",
    )
      .bind(Date.now())
      .run();
    const inbox = await get("/admin/messages", admin);
    expect(inbox.status).toBe(200);
    expect(bookmarkLine(inbox)).toBeUndefined();
    const answered = await get("/admin/messages", admin, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Host: new URL(ORIGIN).host, Origin: ORIGIN },
      body: new URLSearchParams({ id: String(meta.last_row_id), status: "answered" }).toString(),
    });
    expect(answered.status).toBe(303);
    expect(await bookmarkOf(bookmarkLine(answered)!)).toMatch(BOOKMARK);
  });

  it("a request that wrote nothing sets none, whatever its method", async () => {
    const malformed = await postJson("{ not json");
    expect(malformed.status).toBe(400);
    expect(bookmarkLine(malformed)).toBeUndefined();
    const anonymous = await page("/investors");
    expect(anonymous.status).toBe(200);
    expect(bookmarkLine(anonymous)).toBeUndefined();
  });
});

describe("the next request starts from the bookmark", () => {
  it("a read carrying it opens its session there, sees the write, and is not sent the cookie again", async () => {
    const email = `round-trip-${crypto.randomUUID()}@example.com`;
    const res = await postJson(signup({ email }));
    const line = bookmarkLine(res)!;
    const bookmark = (await bookmarkOf(line)) as string;
    const [cookie = ""] = line.split(";");

    const db = await openRequestDb(new Request(`${ORIGIN}/settings`, { headers: { Cookie: cookie } }), env);
    expect(db.start).toBe(bookmark);
    expect(db.refusedCookie).toBe(false);
    const row = await getDb({ DB: db }).select({ email: leads.email }).from(leads).where(eq(leads.email, email)).get();
    expect(row).toEqual({ email });
    expect(db.wrote).toBe(false);
    // The session moves on from the bookmark, never back.
    expect(db.bookmark()! >= bookmark).toBe(true);

    const next = await page("/investors", cookie);
    expect(next.status).toBe(200);
    expect(bookmarkLine(next)).toBeUndefined();
  });

  it("a request that changes things starts at the primary, bookmark or not; a plain read anywhere", async () => {
    const cookie = await signedCookie(await latestBookmark());
    const post = await openRequestDb(
      new Request(`${ORIGIN}/api/leads`, { method: "POST", headers: { Cookie: cookie } }),
      env,
    );
    expect(post.start).toBe("first-primary");
    expect((await openRequestDb(new Request(`${ORIGIN}/`, { method: "DELETE" }), env)).start).toBe("first-primary");
    expect((await openRequestDb(new Request(`${ORIGIN}/`), env)).start).toBe("first-unconstrained");
    expect(
      (await openRequestDb(new Request(`${ORIGIN}/`, { method: "HEAD", headers: { Cookie: cookie } }), env)).start,
    ).toMatch(BOOKMARK);
  });
});

describe("the HTML cache", () => {
  it("keeps serving anonymous pages from the cache, and a visitor carrying a bookmark bypasses it", async () => {
    let hit: Response | undefined;
    for (let i = 0; i < 20 && !hit; i++) {
      const res = await page("/partners");
      expect(bookmarkLine(res)).toBeUndefined();
      await res.arrayBuffer();
      if (cacheOf(res) === "hit") hit = res;
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(hit).toBeDefined();
    const writer = await page("/partners", await signedCookie(await latestBookmark()));
    expect(writer.status).toBe(200);
    expect(cacheOf(writer)).toBe("bypass");
    expect(bookmarkLine(writer)).toBeUndefined();
  });
});

describe("a bookmark cookie the worker did not sign", () => {
  it.each([
    ["garbage", "garbage"],
    ["a well-formed bookmark, unsigned", "00000000-00000001-00000000-00000000000000000000000000000000"],
  ])("(%s) is ignored, answered normally and cleared", async (_, value) => {
    const cookie = `${NAME}=${value}`;
    const db = await openRequestDb(new Request(`${ORIGIN}/`, { headers: { Cookie: cookie } }), env);
    expect(db.start).toBe("first-unconstrained");
    expect(db.refusedCookie).toBe(true);
    const res = await page("/investors", cookie);
    expect(res.status).toBe(200);
    expect(bookmarkLine(res)).toMatch(/Expires=Thu, 01 Jan 1970/i);
  });

  it("a signed value that is not a bookmark (a constraint) is refused too", async () => {
    const db = await openRequestDb(
      new Request(`${ORIGIN}/`, { headers: { Cookie: await signedCookie("first-primary") } }),
      env,
    );
    expect(db.start).toBe("first-unconstrained");
    expect(db.refusedCookie).toBe(true);
  });

  it("a write replaces it with a real bookmark", async () => {
    const jar = new Jar();
    jar.cookies.set(NAME, "garbage");
    const res = await get("/api/leads", jar, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": nextAddress() },
      body: JSON.stringify(signup({ email: `replaced-${crypto.randomUUID()}@example.com` })),
    });
    expect(res.status).toBe(201);
    const lines = res.headers.getSetCookie().filter((c) => c.startsWith(`${NAME}=`));
    expect(lines).toHaveLength(1);
    expect(await bookmarkOf(expectDefined(lines[0]))).toMatch(BOOKMARK);
  });
});

describe("RequestDb", () => {
  it("counts a statement as a write unless it only selects, and runs all of them in its one session", async () => {
    const db = new RequestDb(env.DB, "first-primary");
    expect(db.bookmark()).toBeNull();
    await db.prepare("  SELECT count(*) FROM leads").first();
    await getDb({ DB: db }).select().from(leads).limit(1);
    expect(db.wrote).toBe(false);
    const after = db.bookmark()!;
    expect(after).toMatch(BOOKMARK);
    await db.batch([db.prepare("DELETE FROM rate_limits WHERE window_start < 0")]);
    expect(db.wrote).toBe(true);
    expect(db.bookmark()! >= after).toBe(true);

    const drizzleWrite = new RequestDb(env.DB, "first-primary");
    await getDb({ DB: drizzleWrite }).delete(leads).where(eq(leads.email, "nobody@example.invalid"));
    expect(drizzleWrite.wrote).toBe(true);
  });

  it("refuses exec and dump, which would run outside the session", async () => {
    const db = new RequestDb(env.DB, "first-unconstrained");
    await expect(db.exec()).rejects.toThrow(/prepare\(\)/);
    await expect(db.dump()).rejects.toThrow();
  });
});

describe("a request's env (withBindings)", () => {
  it("shares the worker env's parsed configuration, and a spread with other variables is parsed as itself", () => {
    const derived = withBindings(env, { DB: new RequestDb(env.DB, "first-unconstrained") });
    expect(derived.DB).toBeInstanceOf(RequestDb);
    expect(derived.SITE_URL).toBe(env.SITE_URL);
    expect(readConfig(derived)).toBe(readConfig(env));
    const other = readConfig({ ...derived, SITE_URL: "https://other.example" });
    expect(other.config?.siteUrl).toBe("https://other.example");
  });
});
