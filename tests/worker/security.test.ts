// Security hardening: redirects, sessions, bodies and limits, the HTML cache key, personal pages,
// verified e-mail, and the smaller items (issue 11). Each test failed on the code before its fix.
import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { createCookieSessionStorage } from "@remix-run/cloudflare";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import devVarsExample from "../../.dev.vars.example?raw";
import headersFile from "../../public/_headers?raw";
import worker from "../../worker/server";
import { sessions, users } from "~/db/schema";
import { requireAdmin } from "~/features/auth/guard.server";
import { getDb } from "~/utils/db.server";
import { htmlCacheKey, toCacheEntry } from "../../worker/html-cache";
import { handleSignup } from "~/features/leads/signup.server";
import { configProblems, EXAMPLE_SESSION_SECRET } from "../../worker/production-config";
import { clientNetwork, parseRateLimit } from "~/features/forms/rate-limit.server";
import { sameOriginPath } from "~/utils/same-origin-path";
import { STATIC_SECURITY_HEADERS } from "../../worker/security-headers";
import { get, Jar, ORIGIN, signIn, startLogin } from "./auth-helpers";
import { postForm } from "./leads-helpers";
import { GOOD_PRODUCTION_VARS } from "../fixtures/production-vars";

const SESSION = "__Host-afx_session";
const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
});
const status = async (path: string, jar: Jar) => (await get(path, jar)).status;

afterEach(() => vi.restoreAllMocks());

describe("1. one judge of redirect targets", () => {
  it.each([
    ["/portfolio", "/portfolio"],
    ["/a/b?c=1#d", "/a/b?c=1#d"],
    ["/a/./b/../c", "/a/c"],
    ["/%2e%2e/portfolio", "/portfolio"],
    ["/a%2fb", "/a%2fb"],
  ])("keeps the same-origin path %s as %s", (input, expected) => {
    expect(sameOriginPath(input, ORIGIN)).toBe(expected);
  });

  it.each([
    "/.//evil.com",
    "/./\\evil.com",
    "/x/..//evil.com",
    "/%2e//evil.com",
    "/%2E%2E//evil.com",
    "/x/%2e%2e//evil.com",
    "//evil.com",
    "/\\evil.com",
    "\\\\evil.com",
    "/\t/evil.com",
    "/\n/evil.com",
    "/\r\n/evil.com",
    "/%2f/evil.com",
    "/%5cevil.com",
    " /evil.com",
    "https://evil.com/",
    "https:evil.com",
    "http://afx.test/",
    "javascript:alert(1)",
    "data:text/html,x",
    "evil.com",
    "",
    null,
  ])("refuses %j", (input) => {
    expect(sameOriginPath(input, ORIGIN)).toBeNull();
  });

  it("a signup form's redirectTo never leaves the site (the confirmed /.//evil.com case)", async () => {
    for (const target of ["/.//evil.com", "/x/..//evil.com", "/%2e%2e//evil.com", "/\\evil.com", "https://evil.com/"]) {
      const res = await postForm({ email: `redirect-${Math.random()}@example.com`, firstName: "R", redirectTo: target });
      expect(res.status, target).toBe(303);
      const location = res.headers.get("location")!;
      expect(location, target).toMatch(/^\/(?![/\\])/);
      expect(new URL(location, ORIGIN).origin, target).toBe(ORIGIN);
    }
  });

  it("login's returnTo never leaves the site, nor lands on the API in any case", async () => {
    for (const target of ["/.//evil.com", "/x/..//evil.com", "/API/logout", "/Api/callback"]) {
      const { res } = await signIn("redirect-login@example.com", { returnTo: target });
      expect(res.headers.get("location"), target).toBe("/");
    }
  });
});

describe("2. sessions that end on the server", () => {
  const sessionRow = async (email: string) => {
    const user = await getDb(env).select().from(users).where(eq(users.email, email)).get();
    return getDb(env).select().from(sessions).where(eq(sessions.userId, user!.id));
  };

  it("D1 keeps only a hash of the cookie's token", async () => {
    const { jar } = await signIn("hash@example.com");
    const rows = await sessionRow("hash@example.com");
    expect(rows).toHaveLength(1);
    expect(rows[0].id).toMatch(/^[0-9a-f]{64}$/);
    expect(decodeURIComponent(jar.cookies.get(SESSION)!)).not.toContain(rows[0].id);
  });

  it("an old-style cookie (a signed user id, no server session) is refused", async () => {
    const { jar } = await signIn("legacy@example.com");
    const me = await (await get("/api/auth/user", jar)).json<{ id: string }>();
    const legacy = createCookieSessionStorage({ cookie: { name: SESSION, secrets: [env.SESSION_SECRET] } });
    const s = await legacy.getSession();
    s.set("userId", me.id);
    s.set("renewedAt", Date.now());
    const old = new Jar();
    old.cookies.set(SESSION, (await legacy.commitSession(s)).split(";")[0].slice(SESSION.length + 1));
    expect(await status("/api/auth/user", old)).toBe(401);
  });

  it("a session idle for more than 30 days is refused, its row deleted and its cookie removed", async () => {
    const { jar } = await signIn("idle@example.com");
    const [row] = await sessionRow("idle@example.com");
    await getDb(env).update(sessions).set({ lastSeenAt: new Date(Date.now() - 31 * 86_400_000) }).where(eq(sessions.id, row.id));
    const res = await get("/", jar);
    expect(res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION}=`))).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
    expect(await status("/api/auth/user", jar)).toBe(401);
    expect(await sessionRow("idle@example.com")).toHaveLength(0);
  });

  it("a session older than the absolute limit is refused however active it is", async () => {
    const { jar } = await signIn("absolute@example.com");
    const [row] = await sessionRow("absolute@example.com");
    await getDb(env).update(sessions).set({ createdAt: new Date(Date.now() - 91 * 86_400_000) }).where(eq(sessions.id, row.id));
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
    expect(res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION}=`))).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
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
    const delisted = await requireAdmin(request, { ...env, ADMIN_EMAILS: "someone-else@example.com" }, { json: true }).catch((e: unknown) => e);
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
    const onlyNew = await requireAdmin(request, { ...env, SESSION_SECRET: "brand-new-secret-of-the-group" }, { json: true }).catch((e: unknown) => e);
    expect((onlyNew as Response).status).toBe(401);
  });
});

describe("3. every body capped, every form limited", () => {
  const chunked = (bytes: number) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        const chunk = new TextEncoder().encode(`message=${"x".repeat(1024)}`);
        for (let sent = 0; sent < bytes; sent += chunk.length) controller.enqueue(chunk);
        controller.close();
      },
    });

  it.each(["/help", "/settings", "/api/logout"])("%s: a wrong content type is 415, a chunked body past the cap 413", async (path) => {
    const { jar } = await signIn("bodies@example.com");
    const json = await get(path, jar, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(json.status).toBe(415);
    const big = await get(path, jar, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: chunked(200 * 1024),
      // @ts-expect-error workerd's fetch needs it for a stream body
      duplex: "half",
    });
    expect(big.status).toBe(413);
    expect(await status("/api/auth/user", jar)).toBe(200);
  });

  it("the Help form takes the longest valid message in any script (it posts multipart)", async () => {
    const body = new FormData();
    for (const [k, v] of Object.entries({ name: "名".repeat(100), email: "cjk@example.com", subject: "題".repeat(150), message: "漢".repeat(5000) })) body.set(k, v);
    const res = await SELF.fetch(`${ORIGIN}/help`, { method: "POST", body, headers: { "CF-Connecting-IP": "203.0.113.78" } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Thank you");
    const html = await (await SELF.fetch(`${ORIGIN}/help`)).text();
    expect(html).toMatch(/<form[^>]*enctype="multipart\/form-data"/i);
  });

  it("the Help form is rate limited per client; the typed message is kept", async () => {
    const fields = { name: "Ada", email: "ada@example.com", subject: "Hello", message: "Please keep this text." };
    const { max, windowMs } = parseRateLimit(env.LEADS_RATE_LIMIT);
    const windowOf = () => Math.floor(Date.now() / windowMs);
    // Fixed windows: a run that straddles a window's end starts again (once) in the next one.
    for (let round = 0; round < 2; round++) {
      const ip = `203.0.113.${90 + round}`;
      const post = () => SELF.fetch(`${ORIGIN}/help`, { ...form(fields), headers: { ...form(fields).headers, "CF-Connecting-IP": ip } });
      const window = windowOf();
      const statuses = [];
      for (let i = 0; i < max; i++) statuses.push((await post()).status);
      const limited = await post();
      if (windowOf() !== window) continue;
      expect(statuses).toEqual(Array(max).fill(200));
      expect(limited.status).toBe(429);
      const html = await limited.text();
      expect(html).toMatch(/Too many messages from your network\. Please try again in \d+ minutes?\./);
      expect(html).toContain("Please keep this text.");
      return;
    }
    throw new Error("two windows ended during the test");
  });

  it("a POST to a page without an action is a quiet 405; a 415 is not logged as an error either", async () => {
    const errors = vi.spyOn(console, "error");
    const res = await SELF.fetch(`${ORIGIN}/portfolio`, form({ a: "b" }));
    expect(res.status).toBe(405);
    await res.arrayBuffer();
    const wrongType = await SELF.fetch(`${ORIGIN}/help`, { method: "POST", headers: { "Content-Type": "text/plain" }, body: "x" });
    expect(wrongType.status).toBe(415);
    await wrongType.arrayBuffer();
    expect(errors).not.toHaveBeenCalled();
  });
});

describe("4. the HTML cache key is the rendered state", () => {
  const key = (headers: Record<string, string>) =>
    htmlCacheKey(new Request(`${ORIGIN}/funding`, { headers: { Accept: "text/html", ...headers } }), "v1")?.url ?? null;

  it("keys on the sidebar state the page renders: the first cookie, as read", () => {
    expect(key({ Cookie: "sidebar_state=hidden; sidebar_state=icon" })).toBe(key({ Cookie: "sidebar_state=hidden" }));
    expect(key({ Cookie: "sidebar_state=hidden; sidebar_state=icon" })).not.toBe(key({ Cookie: "sidebar_state=icon" }));
    // Unknown values render the default state: one entry for all of them.
    expect(key({ Cookie: "sidebar_state=true" })).toBe(key({}));
  });

  it("keys crawlers' complete documents apart, and never caches a request the render would stream to", () => {
    const chrome = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    expect(key({ "User-Agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" })).not.toBe(key({ "User-Agent": chrome }));
    expect(key({ "Sec-Fetch-Mode": "cors" })).toBeNull();
    expect(key({ "Sec-Fetch-Mode": "navigate" })).toBe(key({}));
  });

  it("a stored page keeps no transfer headers", async () => {
    const rendered = new Response("<html></html>", {
      headers: { "Content-Type": "text/html", "Content-Encoding": "identity", "Content-Length": "13", "Server-Timing": "x;dur=1" },
    });
    const entry = (await toCacheEntry(rendered))!;
    expect(entry.headers.get("content-type")).toBe("text/html");
    for (const name of ["content-encoding", "server-timing"]) expect(entry.headers.has(name), name).toBe(false);
  });
});

describe("5. personal pages are never cached anywhere", () => {
  it.each(["/", "/portfolio", "/portfolio.data", "/settings", "/blog", "/api/auth/user"])("%s for a member: private, no-store", async (path) => {
    const { jar } = await signIn("personal@example.com");
    const res = await get(path, jar, { headers: { Accept: "text/html" } });
    await res.arrayBuffer();
    expect(res.headers.get("cache-control")).toBe("private, no-store");
  });

  it("the admin dashboard too", async () => {
    const { jar } = await signIn("admin@example.com");
    const res = await get("/admin/leads", jar);
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
  });
});

describe("6. settings act only on a verified e-mail", () => {
  it("an unverified e-mail cannot be subscribed (403, nothing stored) and the switch says why", async () => {
    const { jar } = await signIn("unverified@example.com");
    await getDb(env).update(users).set({ emailVerified: false }).where(eq(users.email, "unverified@example.com"));
    const res = await get("/settings", jar, form({ newsletter: "on" }));
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("has not confirmed that this e-mail address is yours");
    const { results } = await env.DB.prepare("SELECT 1 FROM leads WHERE email = 'unverified@example.com'").all();
    expect(results).toHaveLength(0);
    const page = await (await get("/settings", jar)).text();
    expect(page.match(/<input[^>]*role="switch"[^>]*name="newsletter"[^>]*>/)![0]).toMatch(/\sdisabled=""/);
  });
});

describe("7. smaller items", () => {
  beforeEach(async () => {
    await env.DB.prepare("DELETE FROM rate_limits").run();
  });

  it.each([
    ["198.51.100.7", "198.51.100.7"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:DB8:1:2:ffff::1", "2001:db8:1:2::/64"],
    ["2001:0db8:0001:0002::", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["::ffff:192.0.2.1", "192.0.2.1"],
  ])("the limit counts %s as %s", (address, network) => {
    expect(clientNetwork(address)).toBe(network);
  });

  it("two addresses of one IPv6 /64 share one limit", async () => {
    const limited = { ...env, LEADS_RATE_LIMIT: "2/600" };
    const post = (ip: string, i: number) =>
      handleSignup(
        new Request(`${ORIGIN}/api/leads`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "CF-Connecting-IP": ip },
          body: JSON.stringify({ email: `v6-${i}@example.com`, firstName: "V" }),
        }),
        limited,
      );
    expect((await post("2001:db8:5:6::1", 1)).status).toBe(201);
    expect((await post("2001:db8:5:6::2", 2)).status).toBe(201);
    expect((await post("2001:db8:5:6:ffff::3", 3)).status).toBe(429);
    expect((await post("2001:db8:5:7::1", 4)).status).toBe(201);
  });

  it("a global ceiling stops a flood from many addresses", async () => {
    const limited = { ...env, LEADS_RATE_LIMIT: "5/600/3" };
    const answers = [];
    for (let i = 0; i < 4; i++) {
      const res = await handleSignup(
        new Request(`${ORIGIN}/api/leads`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "CF-Connecting-IP": `192.0.2.${i + 1}` },
          body: JSON.stringify({ email: `flood-${i}@example.com`, firstName: "F" }),
        }),
        limited,
      );
      answers.push([res.status, (await res.json<{ message?: string }>()).message]);
    }
    expect(answers.map(([s]) => s)).toEqual([201, 201, 201, 429]);
    expect(answers[3][1]).toMatch(/too many signup attempts right now/);
    expect(parseRateLimit("10/600")).toEqual({ max: 10, windowMs: 600_000, globalMax: 1000 });
  });

  it("the provider's error parameter cannot forge a log line", async () => {
    const warn = vi.spyOn(console, "warn");
    const { jar } = await startLogin();
    const forged = encodeURIComponent("access_denied\n[admin] granted to attacker");
    await get(`/api/callback?error=${forged}`, jar);
    await get(`/api/callback?error=${forged}&state=nope`, jar);
    expect(warn).toHaveBeenCalled();
    for (const [line] of warn.mock.calls) expect(String(line)).not.toMatch(/[\n\r]/);
  });

  it("log lines carry their fields as one object, with the request id (cf-ray)", async () => {
    const warn = vi.spyOn(console, "warn");
    const { jar } = await startLogin();
    await get("/api/callback?code=x&state=nope", jar, { headers: { "cf-ray": "8f1e2d3c4b5a6978-FRA" } });
    const line = warn.mock.calls.find(([message]) => String(message).startsWith("[sign-in] failed"));
    expect(line?.[1]).toMatchObject({ level: "warn", message: line?.[0], requestId: "8f1e2d3c4b5a6978-FRA" });
    expect(JSON.parse(JSON.stringify(line?.[1]))).toEqual(line?.[1]);
  });

  it("the 201 answer to a signup does not expose the sequential id", async () => {
    const res = await handleSignup(
      new Request(`${ORIGIN}/api/leads`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "CF-Connecting-IP": "192.0.2.200" },
        body: JSON.stringify({ email: "no-id@example.com", firstName: "N" }),
      }),
      env,
    );
    expect(res.status).toBe(201);
    expect(await res.json()).not.toHaveProperty("id");
  });

  it("Permissions-Policy drops the obsolete interest-cohort, in the worker and in public/_headers", async () => {
    expect(STATIC_SECURITY_HEADERS["Permissions-Policy"]).not.toContain("interest-cohort");
    expect(headersFile).not.toContain("interest-cohort");
    const res = await SELF.fetch(`${ORIGIN}/robots.txt`);
    await res.arrayBuffer();
    expect(res.headers.get("permissions-policy")).not.toContain("interest-cohort");
  });

  it("production refuses to serve with the example secret, an http: issuer, the example admin or mail it cannot send", async () => {
    expect(devVarsExample).toContain(`SESSION_SECRET="${EXAMPLE_SESSION_SECRET}"`);
    const good = { ...env, ...GOOD_PRODUCTION_VARS };
    expect(configProblems(good)).toEqual([]);
    // Mail that could never leave: the local server, an example host or sender, or plain text (a
    // value that does not even parse is named by the same check).
    for (const host of ["127.0.0.1", "localhost", "[::1]", "smtp.example.com", ""]) {
      expect(configProblems({ ...good, SMTP_HOST: host })).toEqual([expect.stringMatching(/^SMTP_HOST/)]);
    }
    expect(configProblems({ ...good, SMTP_SECURITY: "off" })).toEqual([expect.stringMatching(/^SMTP_SECURITY/)]);
    for (const from of ["AFX Holding Group <newsletter@example.com>", "news@afx.test", "not an address"]) {
      expect(configProblems({ ...good, MAIL_FROM: from })).toEqual([expect.stringMatching(/^MAIL_FROM/)]);
    }
    const bad = { ...good, SESSION_SECRET: EXAMPLE_SESSION_SECRET, OAUTH_ISSUER: "http://localhost:9400", ADMIN_EMAILS: "admin@example.com" };
    expect(configProblems(bad)).toHaveLength(3);
    // Local and test runs use the example values on purpose and are not refused.
    expect(configProblems({ ...bad, ENVIRONMENT: "development" })).toEqual([]);

    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    type Incoming = Parameters<typeof worker.fetch>[0];
    const ctx = createExecutionContext();
    const refused = await worker.fetch(new Request(`${ORIGIN}/robots.txt`) as Incoming, bad as Env, ctx);
    await waitOnExecutionContext(ctx);
    expect(refused.status).toBe(503);
    expect(await refused.text()).not.toContain(EXAMPLE_SESSION_SECRET);
    expect(errors.mock.calls.flat().join(" ")).toMatch(/SESSION_SECRET is the example value/);
    const ctx2 = createExecutionContext();
    const served = await worker.fetch(new Request(`${ORIGIN}/robots.txt`) as Incoming, good as Env, ctx2);
    await waitOnExecutionContext(ctx2);
    expect(served.status).toBe(200);
  });
});

describe("7. a mangled cookie is no cookie", () => {
  // Remix's own parse throws on a signature that is not base64; every signed cookie of ours reads
  // such a value as missing (cookies.server.ts signedCookie), so the page answers as for a stranger.
  it.each(["afx_session", "afx_flash", "afx_signup", "afx_return_to", "afx_d1_bookmark"])("%s=0000-0000: the pages still answer", async (name) => {
    for (const path of ["/", "/settings", "/api/auth/user"]) {
      const res = await SELF.fetch(`${ORIGIN}${path}`, { headers: { Cookie: `__Host-${name}=0000-0000`, Accept: "text/html" }, redirect: "manual" });
      await res.arrayBuffer();
      expect(res.status, `${path} with ${name}`).toBeLessThan(500);
    }
  });
});
