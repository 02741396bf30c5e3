import { and, eq, gt, lt, or } from "drizzle-orm";
import type { AnySQLiteColumn, AnySQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "~/utils/db.server";

/**
 * A slug no row of `table` has yet: `base`, or `base` with -2, -3… The taken ones are read as a
 * range (`base-` ≤ slug < `base.`, as "-" and "." are neighbours in ASCII), never with LIKE: D1
 * refuses a LIKE pattern over 50 bytes, which a long title's slug passes.
 */
export async function freeSlug(db: Db, table: AnySQLiteTable, column: AnySQLiteColumn, base: string): Promise<string> {
  const rows = await db
    .select({ slug: column })
    .from(table)
    .where(or(eq(column, base), and(gt(column, `${base}-`), lt(column, `${base}.`))));
  const taken = new Set(rows.map((r) => String(r.slug)));
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
  return slug;
}
