/**
 * The write of an item that may announce itself (a news item, an event): one batch of the change,
 * its audit entry, the alert it starts when published with `alert` (startAlert, whose condition
 * reads the row as the batch left it) and `contentChanged`, so the item, its record and its alert
 * are one transaction and every cached page follows at once (docs/decisions/090).
 */
import { sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { contentChanged } from "~/features/content/generation.server";
import { batch, type Db, type Statement, type StatementResult } from "~/utils/db.server";

/** What a save of an announceable item takes: the item (null: a new one), the form's input, who, where. */
export interface SaveArgs<Input> {
  id: number | null;
  input: Input;
  actor: string;
  siteUrl: string;
  now?: number;
}

/** The id, as text, of the row `where` finds: a new row's id for an alert started in its own batch. */
export const idWhere = (table: SQLiteTable, id: SQLiteColumn, where: SQL) =>
  sql`(SELECT CAST(${id} AS TEXT) FROM ${table} WHERE ${where})`;

/** Runs the write (a builder with `returning()`), its audit entry and alert; its rows and whether the alert started. */
export async function announcedWrite<W extends BatchItem<"sqlite">>(
  db: Db,
  write: W,
  audit: Statement,
  alert: Statement,
): Promise<{ rows: StatementResult<W>; alerted: boolean }> {
  const [rows, , started] = await batch(db, [write, audit, alert, contentChanged(db)]);
  return { rows: rows as StatementResult<W>, alerted: (started as { meta: { changes: number } }).meta.changes > 0 };
}
