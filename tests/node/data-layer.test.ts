// The rules of docs/decisions/024-data-layer.md and 065-one-lead-shape-one-db.md, read from the
// source: D1 is reached through one handle, `Db` (Drizzle over the request's D1 session), which
// only utils/db.server.ts makes from a binding; batches go through its one `batch()`; a module that
// writes SQL itself (a prepared statement, or a raw statement in a `sql` template) says why, citing
// the decision, beside the query.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const DECISION = "docs/decisions/024-data-layer.md";

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** Where D1 is handed SQL text: `db.prepare(…)`, or a whole statement written in a `sql` template. */
const RAW_SQL =
  /\.prepare\(|sql`\s*(?:INSERT|UPDATE|DELETE|SELECT|WITH)\b|[`"'](?:INSERT INTO|UPDATE|DELETE FROM|SELECT) \w/;
/**
 * The modules that implement the D1 binding itself (a session that forwards `prepare`, and the local
 * outage switch's wrapper, which fails or forwards each call: docs/decisions/121-outages.md).
 */
const BINDING = new Set(["app/utils/d1-session.server.ts", "app/utils/db.server.ts", "worker/local-faults.ts"]);

describe("the data layer", () => {
  const files = [...sources("app"), ...sources("worker")].filter((f) => !BINDING.has(f));
  const raw = files.filter((f) => RAW_SQL.test(readFileSync(join(ROOT, f), "utf8")));

  it("finds the raw SQL it polices", () => {
    // The limiter's counters are raw by the decision: if this finds nothing, the pattern is wrong.
    expect(raw).toContain("app/features/forms/rate-limit.server.ts");
  });

  it.each(files.map((f) => [f]))("%s: writes SQL itself only with the decision's reason", (file) => {
    const text = readFileSync(join(ROOT, file), "utf8");
    if (RAW_SQL.test(text))
      expect(text, `${file} writes raw SQL without citing ${DECISION}`).toContain(`Raw SQL (${DECISION})`);
  });

  it("routes leave SQL to the features", () => {
    expect(raw.filter((f) => f.startsWith("app/routes/"))).toEqual([]);
  });

  // One data handle (decision 065): nothing but the binding modules holds D1 itself.
  const offending = (pattern: RegExp) =>
    files.flatMap((f) =>
      readFileSync(join(ROOT, f), "utf8")
        .split("\n")
        .flatMap((line, i) => (pattern.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
    );

  it("no function takes a raw D1Database or hands over a D1 statement: data functions take Db, modules hand over builder queries or sql templates", () => {
    expect(offending(/\bD1Database\b|\bD1PreparedStatement\b/)).toEqual([]);
  });

  it("no call site re-wraps a handle (getDb({ DB: … })): a Db is passed on as it is", () => {
    expect(offending(/getDb\(\s*\{/)).toEqual([]);
  });

  it("every batch runs through utils/db.server.ts's batch(db, [...]), never D1's or Drizzle's own", () => {
    expect(offending(/\.batch\s*[<(]/)).toEqual([]);
  });
});
