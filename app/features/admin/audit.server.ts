/**
 * The audit log of admin actions (migrations/0006): who did what to which record, and when. An
 * entry is written in the same D1 batch as the action, so there is never one without the other.
 */
import { maskAddress } from "~/features/mail/message";

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

/**
 * The INSERT of one entry, for the caller's batch. `detailFrom` appends to the detail what SQL
 * finds when the statement runs (what an erasure later in the same batch is about to delete), as
 * `sql` with `?` placeholders over one row whose columns it may name in `from`.
 */
export function auditStatement(
  db: D1Database,
  entry: AuditInput,
  now = Date.now(),
  detailFrom?: { sql: string; from: string; params: unknown[] },
): D1PreparedStatement {
  if (!detailFrom) {
    return db
      .prepare("INSERT INTO audit_log (at, actor, action, target, detail) VALUES (?, ?, ?, ?, ?)")
      .bind(now, entry.actor, entry.action, entry.target, entry.detail ?? null);
  }
  return db
    .prepare(`INSERT INTO audit_log (at, actor, action, target, detail) SELECT ?, ?, ?, ?, ? || (${detailFrom.sql}) FROM (${detailFrom.from})`)
    .bind(now, entry.actor, entry.action, entry.target, entry.detail ?? "", ...detailFrom.params);
}

/** The newest entries, newest first. */
export async function recentAudit(db: D1Database, limit = 20): Promise<AuditEntry[]> {
  const { results } = await db.prepare("SELECT id, at, actor, action, target, detail FROM audit_log ORDER BY at DESC, id DESC LIMIT ?").bind(limit).all<AuditEntry>();
  return results;
}
