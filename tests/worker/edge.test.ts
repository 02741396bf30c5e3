// Edge-first (docs/decisions/120, 121, 122, 125): every route's D1 round trips counted through a wrapped
// binding and held to its budget (docs/testing.md "Round-trip budgets"), and the local fault switch
// (worker/local-faults.ts): while D1 fails, cached pages still answer, a page never rendered, the
// JSON API, admin pages and sign-in answer 503 in words, a signup is kept and written once D1 is
// back; while R2 fails, a document answers 503 and the library still lists it.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import worker from "../../worker/server";
import { setFault } from "../../worker/local-faults";
import { isFresh, toCacheEntry } from "../../worker/html-cache";
import { GOOD_PRODUCTION_VARS } from "../fixtures/production-vars";
import { get, ORIGIN, signIn, type Jar } from "./auth-helpers";
import { putDocument } from "./documents-helpers";
import { nextAddress, postForm, postJson, signup } from "./leads-helpers";

type Incoming = Parameters<typeof worker.fetch>[0];
const HTML = { Accept: "text/html" };

/** env.DB wrapped to count round trips: each run of a statement, each batch (one trip). */
function countingEnv(base: Env = env) {
  const counter = { trips: 0, log: [] as string[] };
  const RUNS = ["first", "all", "run", "raw"] as const;
  const SQL = new WeakMap<D1PreparedStatement, string>();
  const trip = (what: string) => (counter.trips++, counter.log.push(what));
  const counted = (s: D1PreparedStatement, query: string): D1PreparedStatement => {
    SQL.set(s, query);
    const m = s as unknown as Record<string, (...a: unknown[]) => unknown>;
    const bind = m.bind!;
    m.bind = (...v) => counted(bind.apply(s, v) as D1PreparedStatement, query);
    for (const name of RUNS) {
      const run = m[name]!;
      m[name] = (...a) => {
        trip(query.slice(0, 90));
        return run.apply(s, a);
      };
    }
    return s;
  };
  const batched = (st: D1PreparedStatement[]) =>
    trip(`batch [${st.map((s) => (SQL.get(s) ?? "?").slice(0, 60)).join(" | ")}]`);
  const session = (x: D1DatabaseSession): D1DatabaseSession => ({
    prepare: (q) => counted(x.prepare(q), q),
    batch: (st) => (batched(st), x.batch(st)),
    getBookmark: () => x.getBookmark(),
  });
  const db = base.DB;
  const DB: D1Database = {
    prepare: (q) => counted(db.prepare(q), q),
    batch: (st) => (batched(st), db.batch(st)),
    exec: (q) => db.exec(q),
    withSession: (c) => session(db.withSession(c)),
    dump: () => db.dump(),
  };
  return { env: { ...base, DB } as Env, counter };
}

/** One request through the worker with the counting binding: its response read whole, and its trips before that. */
async function trips(path: string, init: RequestInit & { jar?: Jar } = {}) {
  const { env: counting, counter } = countingEnv();
  const { jar, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (jar) headers.set("Cookie", jar.header());
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`${ORIGIN}${path}`, { redirect: "manual", ...rest, headers }) as Incoming,
    counting,
    ctx,
  );
  const body = await res.text();
  const made = counter.trips;
  const log = counter.log.slice();
  await waitOnExecutionContext(ctx);
  return { res, body, trips: made, log, cache: res.headers.get("server-timing")?.match(/desc="(\w+)"/)?.[1] };
}

async function untilHit(path: string) {
  for (let i = 0; i < 30; i++) {
    const r = await trips(path, { headers: HTML });
    if (r.cache === "hit") return r;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${path} never came from the cache`);
}

/**
 * The budgets docs/testing.md states, by route (measured, then held): a change that adds a trip
 * fails the test that names the route.
 */
const BUDGETS: { route: string; who: "anonymous" | "member" | "admin"; budget: number; cached?: true }[] = [
  { route: "/", who: "anonymous", budget: 0, cached: true } /* a cached hit */,
  { route: "/portfolio", who: "anonymous", budget: 1 },
  { route: "/documents", who: "anonymous", budget: 1 },
  { route: "/", who: "member", budget: 1 },
  { route: "/settings", who: "member", budget: 2 },
  { route: "/admin/leads", who: "admin", budget: 2 },
  { route: "/admin/documents", who: "admin", budget: 3 },
];
const SIGNUP_BUDGET = 2;

let member: Jar;
let admin: Jar;
beforeAll(async () => {
  member = (await signIn("budget-member@example.com", { name: "Bea Budget" })).jar;
  admin = (await signIn("admin@example.com", { name: "Ada Admin" })).jar;
});
afterEach(async () => {
  await setFault("d1", false);
  await setFault("r2", false);
});

describe("D1 round trips per request, held to their budgets", () => {
  it.each(BUDGETS)("$who $route: at most $budget D1 round trips", async ({ route, who, budget, cached }) => {
    await untilHit("/"); // the isolate knows the content's generation
    const jar = who === "member" ? member : who === "admin" ? admin : undefined;
    // A render: a query the cache has never seen (for a member every page is one).
    const page = cached
      ? await untilHit(route)
      : await trips(`${route}?budget=${crypto.randomUUID()}`, { headers: HTML, jar });
    expect(page.res.status).toBe(200);
    if (!cached && who === "anonymous") expect(page.cache).toBe("miss");
    console.log(`[round trips] ${who} ${route}${cached ? " (cached hit)" : ""}: ${page.trips}`);
    expect(page.trips, `${who} ${route}'s trips:\n${page.log.join("\n")}`).toBeLessThanOrEqual(budget);
  });

  it(`a signup POST /api/leads: at most ${SIGNUP_BUDGET} trips`, async () => {
    await untilHit("/");
    // The window's first signup also prunes the old windows (in waitUntil, off the answer's path):
    // one trip more, once per window. The one measured is a signup like any other.
    const opening = await trips("/api/leads", {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": nextAddress() },
      body: JSON.stringify(signup({ email: "budget-opening@example.com" })),
    });
    expect(opening.res.status).toBe(201);
    console.log(`[round trips] the window's first signup POST /api/leads: ${opening.trips}`);
    const res = await trips("/api/leads", {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": nextAddress() },
      body: JSON.stringify(signup({ email: "budget-signup@example.com" })),
    });
    expect(res.res.status).toBe(201);
    console.log(`[round trips] signup POST /api/leads: ${res.trips}`);
    expect(res.trips, `the signup's trips:\n${res.log.join("\n")}`).toBeLessThanOrEqual(SIGNUP_BUDGET);
  });
});

describe("the local fault switch", () => {
  it("production answers the switch's path as an unknown path, and its D1 keeps answering", async () => {
    const production = { ...env, ...GOOD_PRODUCTION_VARS } as Env;
    const ctx = createExecutionContext();
    const res = await worker.fetch(
      new Request(`${ORIGIN}/__fault/d1`, { headers: { Accept: "text/html" } }) as Incoming,
      production,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("d1 off");
    const ctx2 = createExecutionContext();
    const post = await worker.fetch(
      new Request(`${ORIGIN}/__fault/d1`, { method: "POST", body: "on" }) as Incoming,
      production,
      ctx2,
    );
    await waitOnExecutionContext(ctx2);
    expect(post.status).toBeGreaterThanOrEqual(400);
    expect((await get("/__fault/")).status).toBe(200);
    expect(await (await get("/__fault/")).text()).toContain("d1 off");
  });

  it("a stored copy is fresh for 60 s; past that it is served only while D1 fails", async () => {
    const entry = (await toCacheEntry(new Response("<p>x</p>", { headers: { "Content-Type": "text/html" } })))!;
    expect(isFresh(entry)).toBe(true);
    expect(isFresh(entry, Date.now() + 61_000)).toBe(false);
    expect(entry.headers.get("cache-control")).toBe(`public, max-age=${60 + 24 * 60 * 60}`);
  });

  it("while D1 fails: a cached page answers 200, a page never rendered 503 in words, the API 503, admin and sign-in 503", async () => {
    const cached = await untilHit("/portfolio");
    const on = await get("/__fault/d1", undefined, { method: "POST", body: "on" });
    expect(await on.text()).toContain("d1 on");

    const hit = await get("/portfolio", undefined, { headers: HTML });
    expect(hit.status).toBe(200);
    expect(await hit.text()).toBe(cached.body);

    const never = await get("/legal?never-rendered=1", undefined, { headers: HTML });
    expect(never.status).toBe(503);
    expect(Number(never.headers.get("retry-after"))).toBeGreaterThan(0);
    const words = await never.text();
    expect(words).toContain("briefly unavailable");
    expect(words).toContain("What still works");

    const api = await get("/api/leads/stats", admin, { headers: { Accept: "application/json" } });
    expect(api.status).toBe(503);
    expect(api.headers.get("retry-after")).toBeTruthy();
    expect(((await api.json()) as { message: string }).message).toMatch(/unavailable/);

    for (const jar of [admin, undefined]) {
      const page = await get("/admin/leads", jar, { headers: HTML });
      expect(page.status).toBe(503);
      expect(await page.text()).toContain("The database is unavailable");
    }
    const signInPage = await get("/api/login", undefined, { headers: HTML });
    expect(signInPage.status).toBe(503);
    expect(await signInPage.text()).toContain("Sign-in is briefly unavailable");
  });

  it("a signup while D1 fails answers 202, waits in the queue, and is written once with its consent and time when D1 is back", async () => {
    await setFault("d1", true);
    const before = Date.now();
    const res = await postJson(signup({ email: "kept@example.com" }));
    expect(res.status).toBe(202);
    expect(((await res.json()) as { message: string }).message).toMatch(/may take a few minutes/);
    const form = await postForm({
      email: "kept-form@example.com",
      firstName: "Kim",
      source: "footer",
      redirectTo: "/",
    });
    expect(form.status).toBe(202);
    const page = await form.text();
    expect(page.includes("You&#39;re all set!"), "the usual success words").toBe(true);
    expect(page.includes("may take a few minutes"), "the line about the delay").toBe(true);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(
      (await env.DB.prepare("SELECT count(*) AS n FROM leads WHERE email LIKE 'kept%'").first<{ n: number }>())!.n,
    ).toBe(0);

    await setFault("d1", false);
    await expect
      .poll(
        async () =>
          (await env.DB.prepare("SELECT count(*) AS n FROM leads WHERE email LIKE 'kept%'").first<{ n: number }>())!.n,
        { timeout: 20_000, interval: 250 },
      )
      .toBe(2);
    const lead = (await env.DB.prepare(
      "SELECT status, consent_version, consent_method, subscribed_at FROM leads WHERE email = 'kept@example.com'",
    ).first<{ status: string; consent_version: string; consent_method: string; subscribed_at: number }>())!;
    expect(lead.status).toBe("pending");
    expect(lead.consent_method).toBe("double-opt-in");
    expect(lead.consent_version).toBe("2026-11-consent-1");
    // The request's time, not the write's (which came seconds later).
    expect(lead.subscribed_at).toBeGreaterThanOrEqual(before);
    expect(lead.subscribed_at).toBeLessThan(before + 1_500);
    await expect
      .poll(
        async () =>
          (await env.DB.prepare("SELECT count(*) AS n FROM mail_outbox WHERE recipient = 'kept@example.com'").first<{
            n: number;
          }>())!.n,
        { timeout: 10_000 },
      )
      .toBe(1);
  }, 40_000);

  it("while R2 fails: a document answers 503 with Retry-After while /documents lists it; after, 200 again", async () => {
    const doc = await putDocument({ title: "Outage Deck" });
    await setFault("r2", true);
    const down = await get(doc.path);
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBeTruthy();
    const list = await get("/documents?r2-down=1", undefined, { headers: HTML });
    expect(list.status).toBe(200);
    expect(await list.text()).toContain("Outage Deck");
    await setFault("r2", false);
    const back = await get(doc.path);
    expect(back.status).toBe(200);
    await back.arrayBuffer();
  });
});
