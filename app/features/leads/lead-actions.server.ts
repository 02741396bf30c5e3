/**
 * What an admin can do to one lead from the workbench (docs/decisions/017-leads-workbench.md):
 * unsubscribe it or delete it, each written to the audit log in the same D1 batch.
 */
import { eq, sql } from "drizzle-orm";
import { auditIfChanged, leadTarget } from "~/features/admin/audit.server";
import { leads, type LeadStatus } from "~/db/schema";
import { getDb } from "~/utils/db.server";
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

/** Times as the page shows them: ms since the epoch. */
const ms = <T extends number | null>(column: typeof leads.subscribedAt | typeof leads.confirmedAt | typeof leads.unsubscribedAt) => sql<T>`${column}`;

export async function getLead(db: D1Database, id: number): Promise<LeadRecord | null> {
  const row = await getDb({ DB: db })
    .select({
      id: leads.id,
      email: leads.email,
      firstName: leads.firstName,
      lastName: leads.lastName,
      source: leads.source,
      status: leads.status,
      consentMethod: leads.consentMethod,
      consentVersion: leads.consentVersion,
      pagePath: leads.pagePath,
      subscribedAt: ms<number>(leads.subscribedAt),
      confirmedAt: ms<number | null>(leads.confirmedAt),
      unsubscribedAt: ms<number | null>(leads.unsubscribedAt),
    })
    .from(leads)
    .where(eq(leads.id, id))
    .get();
  return row ?? null;
}

/** Unsubscribes the lead (its confirmation links die with it); false when it already was. */
export function adminUnsubscribe(db: D1Database, lead: LeadRecord, actor: string, now = Date.now()): Promise<boolean> {
  // An entry only for a change that happened (changes() is the UPDATE's).
  const audit = auditIfChanged(db, { actor, action: "lead.unsubscribe", target: leadTarget(lead), detail: `was ${lead.status}` }, now);
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
