// The limiter is one call for its caller: it counts, runs the caller's write under the limit in
// the same D1 batch, and settles (prunes, answers).
import { env } from "cloudflare:test";
import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { auditLog } from "~/db/schema";
import { limitClient, type GuardedWrite } from "~/features/forms/rate-limit.server";
import { statement } from "~/utils/db.server";

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);
const limited = { ...env, LEADS_RATE_LIMIT: "2/600/3" } as Env;
const request = (ip: string) => new Request("http://localhost/", { method: "POST", headers: { "CF-Connecting-IP": ip } });
const probe =
  (target: string): GuardedWrite =>
  (guard) => [
    statement(env.DB, sql`INSERT INTO ${auditLog} (at, actor, action, target) SELECT ${NOW}, 'limiter-test', 'probe', ${target} WHERE ${guard}`),
    statement(env.DB, sql`SELECT COUNT(*) AS n FROM ${auditLog} WHERE ${auditLog.actor} = 'limiter-test'`),
  ];
const probes = async () => (await env.DB.prepare("SELECT target FROM audit_log WHERE actor = 'limiter-test' ORDER BY id").all<{ target: string }>()).results.map((r) => r.target);

beforeEach(async () => {
  await env.DB.batch([env.DB.prepare("DELETE FROM rate_limits"), env.DB.prepare("DELETE FROM audit_log")]);
});

describe("limitClient with a write", () => {
  it("writes only while the client is within its limit, and hands back the write's results in order", async () => {
    const outcomes = [];
    for (const target of ["a1", "a2", "a3"]) outcomes.push(await limitClient(request("192.0.2.1"), limited, "signup", undefined, probe(target), NOW));
    expect(outcomes.map((o) => o.allowed)).toEqual([true, true, false]);
    expect(outcomes[2]!.message).toMatch(/^Too many signup attempts from your network\./);
    expect(await probes()).toEqual(["a1", "a2"]);
    expect(outcomes.map((o) => o.results.length)).toEqual([2, 2, 2]);
    expect(outcomes.map((o) => o.results[1]!.results[0])).toEqual([{ n: 1 }, { n: 2 }, { n: 2 }]);
  });

  it("writes nothing once the form's ceiling is reached, whoever asks", async () => {
    const allowed = [];
    for (const [i, ip] of ["192.0.2.1", "192.0.2.2", "192.0.2.3", "192.0.2.4"].entries()) {
      allowed.push((await limitClient(request(ip), limited, "contact", undefined, probe(`b${i}`), NOW)).allowed);
    }
    expect(allowed).toEqual([true, true, true, false]);
    expect(await probes()).toEqual(["b0", "b1", "b2"]);
  });

  it("without a write, counts and answers as before, with no results", async () => {
    const outcome = await limitClient(request("192.0.2.9"), limited, "account", undefined, undefined, NOW);
    expect(outcome).toMatchObject({ allowed: true, results: [] });
    expect(outcome.retryAfter).toBe(600);
  });
});
