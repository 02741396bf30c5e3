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

/** The INSERT of one entry, for the caller's batch. */
export function auditStatement(
  db: D1Database,
  entry: { actor: string; action: string; target: string; detail?: string | null },
  now = Date.now(),
): D1PreparedStatement {
  return db
    .prepare("INSERT INTO audit_log (at, actor, action, target, detail) VALUES (?, ?, ?, ?, ?)")
    .bind(now, entry.actor, entry.action, entry.target, entry.detail ?? null);
}

/** The newest entries, newest first. */
export async function recentAudit(db: D1Database, limit = 20): Promise<AuditEntry[]> {
  const { results } = await db.prepare("SELECT id, at, actor, action, target, detail FROM audit_log ORDER BY at DESC, id DESC LIMIT ?").bind(limit).all<AuditEntry>();
  return results;
}
