/**
 * The content's generation (docs/decisions/090-one-html-cache-refresh.md, docs/ventures.md): one
 * number in D1 that every change a visitor's page shows bumps, in the same batch as the change.
 * Every cached page's key carries it, so after a change every data centre's next request for any
 * page misses and renders afresh; the old entries are never served again and expire in 60 s.
 */
import { sql } from "drizzle-orm";
import { contentGeneration, documents } from "~/db/schema";
import type { Db, Statement } from "~/utils/db.server";

/**
 * The statement that marks the content changed, for the caller's batch (with the change itself).
 * Raw SQL (docs/decisions/024-data-layer.md): one upsert that increments, which the builder spells
 * no shorter; the row may be absent (a fresh or emptied D1), so it is created at 1.
 */
export function contentChanged(db: Db): Statement {
  void db;
  return sql`INSERT INTO ${contentGeneration} (id, value) VALUES (1, 1)
             ON CONFLICT (id) DO UPDATE SET value = ${contentGeneration.value} + 1`;
}

/**
 * The current generation, as the cache key's segment: the counter, and the document library's own
 * state (its count and latest change), which changes without an admin's batch too (a seed, the
 * operator's SQL), so a withdrawn document never outlives its change. One statement, one round trip.
 * Raw SQL (docs/decisions/024-data-layer.md): three scalar subqueries in one SELECT.
 */
export async function readContentGeneration(db: Db): Promise<string> {
  const [row] = await db.all<{ g: number | null; n: number; at: number | null }>(
    sql`SELECT (SELECT ${contentGeneration.value} FROM ${contentGeneration} WHERE ${contentGeneration.id} = 1) AS g,
               (SELECT count(*) FROM ${documents}) AS n,
               (SELECT max(${documents.updatedAt}) FROM ${documents}) AS at`,
  );
  return `content-${row?.g ?? 0}-${row?.n ?? 0}-${row?.at ?? 0}`;
}
