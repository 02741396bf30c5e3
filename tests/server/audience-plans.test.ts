// The reads that grow with the audience (issue 60, bench/at-size.mjs): the dashboard's hand-off and
// alerts-audience counts read leads_audience_idx alone, never each subscriber's row; the alert
// fan-out's chunks walk the primary key from the last lead seen, never re-reading and sorting every
// alerts subscriber per chunk (quadratic in them). Plans as SQLite makes them without ANALYZE, as
// on a D1 database nobody has analysed.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { SQL } from "drizzle-orm";
import { dueRecipients } from "~/features/alerts/alerts.server";
import { audienceQueries } from "~/features/alerts/preferences.server";
import { handoffCountQueries } from "~/features/handoff/handoff.server";
import { getDb, toQuery } from "~/utils/db.server";

async function plan(query: SQL | { toSQL(): { sql: string; params: unknown[] } }) {
  const { sql, params } = "toSQL" in query ? query.toSQL() : toQuery(query);
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>();
  return results.map((r) => r.detail).join("\n");
}

describe("reads that grow with the audience", () => {
  it("the dashboard's hand-off and alerts-audience counts read the index alone", async () => {
    const db = getDb(env);
    for (const query of [...handoffCountQueries(db), ...audienceQueries(db)]) {
      const steps = (await plan(query)).split("\n").filter((d) => /\bleads\b/.test(d));
      expect(steps.length).toBeGreaterThan(0);
      for (const step of steps) expect(step).toMatch(/^SEARCH leads USING COVERING INDEX leads_audience_idx \(/);
    }
  });

  it("a fan-out chunk is a range of the primary key, in its order", async () => {
    const db = getDb(env);
    for (const send of [
      { kind: "news", itemId: "1", venture: null },
      { kind: "event-reminder", itemId: "2", venture: "fiscal-me" },
    ]) {
      const text = await plan(dueRecipients(db, send, 1000));
      expect(text).toMatch(/^SEARCH leads USING INTEGER PRIMARY KEY \(rowid>\?\)/m);
      expect(text).not.toMatch(/TEMP B-TREE/);
    }
  });
});
