/**
 * The audit log of admin actions (migrations/0006): who did what to which record, and when. An
 * entry is written in the same D1 batch as the action, so there is never one without the other.
 */
import { desc, sql, type SQL } from "drizzle-orm";
import { auditLog } from "~/db/schema";
import { maskAddress } from "~/features/mail/message";
import { columnName, together, type Db, type Statement } from "~/utils/db.server";

export interface AuditEntry {
  id: number;
  at: number;
  actor: string;
  action: string;
  target: string;
  detail: string | null;
}

/** A lead as an audit target: its id and a masked address, nothing an erasure must remove. */
export const leadTarget = (lead: { id: number; email: string }) => `lead #${lead.id} (${maskAddress(lead.email)})`;

export interface AuditInput {
  actor: string;
  action: string;
  target: string;
  detail?: string | null;
}

/** An entry's columns, for the INSERT … SELECT statements below. */
const ENTRY_COLUMNS = sql`(${sql.join([auditLog.at, auditLog.actor, auditLog.action, auditLog.target, auditLog.detail].map(columnName), sql`, `)})`;

/**
 * The INSERT of one entry, for the caller's batch. `detailFrom` appends to the detail what SQL
 * finds when the statement runs (what an erasure later in the same batch is about to delete): the
 * constant expression `sql` over the one row that the query `from` selects.
 */
export function auditStatement(
  db: Db,
  entry: AuditInput,
  now = Date.now(),
  detailFrom?: { sql: string; from: SQL },
): Statement {
  if (!detailFrom) {
    return db.insert(auditLog).values({ at: new Date(now), ...entry, detail: entry.detail ?? null });
  }
  // Raw SQL (docs/decisions/024-data-layer.md): an INSERT … SELECT over the caller's own SQL.
  return sql`INSERT INTO ${auditLog} ${ENTRY_COLUMNS}
      SELECT ${now}, ${entry.actor}, ${entry.action}, ${entry.target}, ${entry.detail ?? ""} || (${sql.raw(detailFrom.sql)}) FROM (${detailFrom.from})`;
}

/**
 * The INSERT of one entry that is written only when the batch's previous statement changed a row,
 * for the caller's batch right after its UPDATE (no entry for an action that changed nothing).
 * Raw SQL (docs/decisions/024-data-layer.md): `changes()` has no builder form.
 */
export function auditIfChanged(db: Db, entry: AuditInput, now = Date.now()): Statement {
  return sql`INSERT INTO ${auditLog} ${ENTRY_COLUMNS}
      SELECT ${now}, ${entry.actor}, ${entry.action}, ${entry.target}, ${entry.detail ?? null} WHERE changes() > 0`;
}

/** The newest entries, newest first. */
export async function recentAudit(db: Db, limit = 20): Promise<AuditEntry[]> {
  const [rows] = await together(db, [
    db
      .select({
        id: auditLog.id,
        at: sql<number>`${auditLog.at}`,
        actor: auditLog.actor,
        action: auditLog.action,
        target: auditLog.target,
        detail: auditLog.detail,
      })
      .from(auditLog)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(limit),
  ]);
  return rows;
}
