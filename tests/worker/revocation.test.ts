// Revocation at once (docs/decisions/059-limits-gets-and-revocation.md): a request that carries a
// session cookie reads its session at the D1 primary, so a session ended on one device ("Sign out
// everywhere", a deleted account) is refused on every other at its next request, even a GET without
// a bookmark that reads everything else from a replica. Locally there is no replica, so a second
// database plays one that lags: it holds what the primary held before the revocation. Both tests
// failed before (the session was read wherever the request's GET session started: the replica).
import { applyD1Migrations, createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../worker/server";
import { COOKIES } from "~/utils/cookies.server";
import { get, Jar, ORIGIN, signIn } from "./auth-helpers";

const BOOKMARK = `__Host-${COOKIES.d1Bookmark}`;
const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN, Host: new URL(ORIGIN).host },
  body: new URLSearchParams(fields).toString(),
});

beforeAll(async () => {
  await applyD1Migrations(env.REPLICA, env.TEST_MIGRATIONS);
});

/** The replica catches up with the primary's members and sessions, then lags from here on. */
async function replicaCatchesUp() {
  await env.REPLICA.batch(["sessions", "users"].map((t) => env.REPLICA.prepare(`DELETE FROM ${t}`)));
  for (const table of ["users", "sessions"]) {
    const { results } = await env.DB.prepare(`SELECT * FROM ${table}`).all<Record<string, unknown>>();
    if (!results.length) continue;
    await env.REPLICA.batch(
      results.map((row) => {
        const columns = Object.keys(row);
        return env.REPLICA.prepare(
          `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
        ).bind(...Object.values(row));
      }),
    );
  }
}

/**
 * D1 with read replication on, as a Worker sees it while its nearest replica lags: a session that
 * may start anywhere reads the replica; one that starts at the primary or at a bookmark, and a
 * plain query, read the primary. `sessions` records where each session started and what it ran.
 */
function laggingD1() {
  const sessions: { start: string; statements: string[] }[] = [];
  const binding = {
    prepare: (query: string) => env.DB.prepare(query),
    batch: (statements: D1PreparedStatement[]) => env.DB.batch(statements),
    withSession(start: string = "first-unconstrained") {
      const session = (start === "first-unconstrained" ? env.REPLICA : env.DB).withSession(start);
      const record = { start, statements: [] as string[] };
      sessions.push(record);
      return {
        prepare: (query: string) => (record.statements.push(query), session.prepare(query)),
        batch: (statements: D1PreparedStatement[]) => session.batch(statements),
        getBookmark: () => session.getBookmark(),
      };
    },
  };
  return { binding: binding as unknown as D1Database, sessions };
}

type Incoming = Parameters<typeof worker.fetch>[0];
/** A GET of `path` by the device holding `jar`, through the whole worker, with D1 lagging. */
async function getLagging(path: string, jar: Jar, d1 = laggingD1()) {
  const ctx = createExecutionContext();
  const request = new Request(`${ORIGIN}${path}`, {
    headers: { Cookie: jar.header(), Accept: "text/html" },
    redirect: "manual",
  });
  const res = await worker.fetch(request as Incoming, { ...env, DB: d1.binding } as Env, ctx);
  await res.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return res;
}

/** The member's sessions as the replica still has them. */
const replicaSessions = async (email: string) =>
  (await env.REPLICA.prepare(
    "SELECT COUNT(*) AS n FROM sessions JOIN users ON users.id = sessions.user_id WHERE users.email = ?",
  )
    .bind(email)
    .first<{ n: number }>())!.n;

/** Two devices of one member, the replica caught up with both sessions, the phone without a bookmark. */
async function twoDevices(email: string) {
  const laptop = (await signIn(email)).jar;
  const phone = (await signIn(email)).jar;
  phone.cookies.delete(BOOKMARK);
  await replicaCatchesUp();
  expect((await getLagging("/api/auth/user", phone)).status).toBe(200);
  return { laptop, phone };
}

describe("a session ended on one device is refused on the others at once", () => {
  it("'Sign out everywhere': the phone's next GET, without a bookmark, is signed out", async () => {
    const email = `everywhere-${crypto.randomUUID()}@example.com`;
    const { laptop, phone } = await twoDevices(email);
    expect((await get("/api/logout", laptop, form({ everywhere: "on" }))).status).toBe(302);
    expect(await replicaSessions(email)).toBe(2);
    expect((await getLagging("/api/auth/user", phone)).status).toBe(401);
    expect((await getLagging("/settings", phone)).status).toBe(200);
    expect((await getLagging("/settings/delete", phone)).headers.get("Location")).toMatch(/^\/api\/login\?/);
  });

  it("a deleted account: the phone's next GET is signed out", async () => {
    const email = `deleted-${crypto.randomUUID()}@example.com`;
    const { laptop, phone } = await twoDevices(email);
    const deleted = await get("/settings/delete", laptop, form({ email }));
    expect(deleted.status).toBe(302);
    expect(await replicaSessions(email)).toBe(2);
    expect((await getLagging("/api/auth/user", phone)).status).toBe(401);
  });
});

describe("what it costs a member's request", () => {
  it("at the primary only the session lookup and the shell's ventures (one batch, decision 125); the page's own reads stay at the replica", async () => {
    const { jar } = await signIn(`cost-${crypto.randomUUID()}@example.com`);
    jar.cookies.delete(BOOKMARK);
    await replicaCatchesUp();
    const member = laggingD1();
    expect((await getLagging("/settings", jar, member)).status).toBe(200);
    const at = (start: string) => member.sessions.filter((s) => s.start === start).flatMap((s) => s.statements);
    const primary = at("first-primary");
    expect(primary).toHaveLength(2);
    expect(primary.filter((q) => /^select .* from "sessions" inner join "users"/i.test(q))).toHaveLength(1);
    expect(primary.filter((q) => /^select .* from "ventures"/i.test(q))).toHaveLength(1);
    expect(at("first-unconstrained").some((q) => /from "leads"/i.test(q))).toBe(true);
    console.info(
      `[revocation] a member's GET /settings: ${primary.length} statements at the primary, ${at("first-unconstrained").length} where the replica may answer`,
    );
    // A visitor without a session cookie reads nothing at the primary.
    const visitor = laggingD1();
    expect((await getLagging("/settings", new Jar(), visitor)).status).toBe(200);
    expect(visitor.sessions.filter((s) => s.start === "first-primary").flatMap((s) => s.statements)).toEqual([]);
  });
});
