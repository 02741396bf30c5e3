/**
 * What an admin can do to one lead from the workbench (docs/decisions/017-leads-workbench.md):
 * unsubscribe it or delete it, each written to the audit log in the same D1 batch.
 */
import { eq } from "drizzle-orm";
import { auditIfChanged, leadTarget } from "~/features/admin/audit.server";
import { leads, type Lead } from "~/db/schema";
import { type Db } from "~/utils/db.server";
import { erasePerson, type ErasureSummary } from "~/features/privacy/erase.server";
import { unsubscribeLead } from "~/features/leads/subscription.server";

/** One lead, every field, as the schema types it. */
export async function getLead(db: Db, id: number): Promise<Lead | null> {
  return (await db.select().from(leads).where(eq(leads.id, id)).get()) ?? null;
}

/** Every topic's lead of one address, with where each stands (the workbench's lead page). */
export async function addressTopics(db: Db, email: string) {
  return db
    .select({ id: leads.id, topic: leads.topic, status: leads.status })
    .from(leads)
    .where(eq(leads.email, email))
    .orderBy(leads.topic);
}

/** Unsubscribes the lead (its confirmation links die with it); false when it already was. */
export function adminUnsubscribe(db: Db, lead: Lead, actor: string, now = Date.now()): Promise<boolean> {
  // An entry only for a change that happened (changes() is the UPDATE's).
  const audit = auditIfChanged(
    db,
    { actor, action: "lead.unsubscribe", target: leadTarget(lead), detail: `was ${lead.status}` },
    now,
  );
  return unsubscribeLead(db, { id: lead.id }, now, [audit]);
}

/**
 * Deletes the person behind the lead: everything stored about the address is erased (the lead and
 * its consent record, contact messages, a member account, e-mails to it), and only a keyed hash is
 * kept so the address is never mailed or re-added (docs/decisions/019-personal-data.md). The audit
 * entry, written in the erasure's batch, keeps the lead's id, a masked address and what was erased.
 */
export function adminDelete(env: Env, lead: Lead, actor: string, now = Date.now()): Promise<ErasureSummary> {
  return erasePerson(env, lead.email, {
    actor,
    now,
    audit: { actor, action: "lead.delete", target: leadTarget(lead), detail: `was ${lead.status}` },
  });
}
