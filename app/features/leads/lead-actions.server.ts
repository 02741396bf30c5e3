/**
 * What an admin can do to one lead from the workbench (docs/decisions/017-leads-workbench.md):
 * unsubscribe it or delete it, each written to the audit log in the same D1 batch.
 */
import { leadTarget } from "~/features/admin/audit.server";
import type { LeadStatus } from "~/db/schema";
import { erasePerson, type ErasureSummary } from "~/features/privacy/erase.server";
import { unsubscribeLead } from "~/features/leads/subscription.server";

export interface LeadRecord {
  id: number;
  email: string;
  firstName: string;
  lastName: string | null;
  source: string;
  status: LeadStatus;
  consentMethod: string;
  consentVersion: string | null;
  pagePath: string | null;
  subscribedAt: number;
  confirmedAt: number | null;
  unsubscribedAt: number | null;
}

export async function getLead(db: D1Database, id: number): Promise<LeadRecord | null> {
  return db
    .prepare(
      `SELECT id, email, first_name AS firstName, last_name AS lastName, source, status, consent_method AS consentMethod,
         consent_version AS consentVersion, page_path AS pagePath, subscribed_at AS subscribedAt,
         confirmed_at AS confirmedAt, unsubscribed_at AS unsubscribedAt
       FROM leads WHERE id = ?`,
    )
    .bind(id)
    .first<LeadRecord>();
}

/** Unsubscribes the lead (its confirmation links die with it); false when it already was. */
export function adminUnsubscribe(db: D1Database, lead: LeadRecord, actor: string, now = Date.now()): Promise<boolean> {
  // An entry only for a change that happened (changes() is the UPDATE's).
  const audit = db
    .prepare("INSERT INTO audit_log (at, actor, action, target, detail) SELECT ?, ?, 'lead.unsubscribe', ?, ? WHERE changes() > 0")
    .bind(now, actor, leadTarget(lead), `was ${lead.status}`);
  return unsubscribeLead(db, { id: lead.id }, now, [audit]);
}

/**
 * Deletes the person behind the lead: everything stored about the address is erased (the lead and
 * its consent record, contact messages, a member account, e-mails to it), and only a keyed hash is
 * kept so the address is never mailed or re-added (docs/decisions/019-personal-data.md). The audit
 * entry, written in the erasure's batch, keeps the lead's id, a masked address and what was erased.
 */
export function adminDelete(env: Env, lead: LeadRecord, actor: string, now = Date.now()): Promise<ErasureSummary> {
  return erasePerson(env, lead.email, { actor, now, audit: { actor, action: "lead.delete", target: leadTarget(lead), detail: `was ${lead.status}` } });
}
