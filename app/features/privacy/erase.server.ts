/**
 * Erasure (docs/decisions/019-personal-data.md): a member's "Delete Account" and the admin's
 * "Delete" of a lead. Every row about the person is deleted (not blanked: a message's subject and
 * a lead's source and dates are personal too, and an empty row answers nobody), in one D1 batch.
 * What stays: the address's entry on the suppression list (a keyed hash, no readable address), so
 * nothing re-adds or mails it later, and the anonymous per-day lead counts. Callers record the
 * audit entry from the returned summary.
 */
import { memberIds, personByAddress, personOfMember, placeholders, type Person } from "~/features/privacy/person.server";
import { suppressStatement } from "~/features/privacy/suppression.server";
import { log } from "~/utils/log.server";

export interface ErasureSummary {
  /** A member record was deleted (with its sessions). */
  member: boolean;
  sessions: number;
  /** A newsletter record was deleted (with its confirmation links). */
  lead: boolean;
  messages: number;
  /** E-mails to the address in the outbox, sent or queued (queued ones are never sent now). */
  emails: number;
  /** The address is on the suppression list. */
  suppressed: boolean;
}

async function erase(env: Env, person: Person, actor: string, now: number): Promise<ErasureSummary> {
  const db = env.DB;
  const ids = await memberIds(db, person);
  const email = person.byAddress ? person.email : null;
  const inIds = placeholders(ids);
  const statements = [
    db.prepare(`DELETE FROM contact_messages WHERE lower(trim(email)) = ? OR user_id IN (${inIds})`).bind(email, ...ids),
    db.prepare("DELETE FROM newsletter_tokens WHERE lead_id IN (SELECT id FROM leads WHERE email = ?1)").bind(email),
    db.prepare("DELETE FROM leads WHERE email = ?1").bind(email),
    db.prepare("DELETE FROM mail_outbox WHERE lower(recipient) = ?1").bind(email),
    db.prepare(`DELETE FROM sessions WHERE user_id IN (${inIds})`).bind(...ids),
    db.prepare(`DELETE FROM users WHERE id IN (${inIds})`).bind(...ids),
  ];
  // Only an address that is theirs is suppressed: an unverified claim must not block its owner.
  if (email) statements.push(await suppressStatement(env, email, "erased", now));
  const [messages, , lead, emails, sessions, users] = await db.batch(statements);
  const summary: ErasureSummary = {
    member: (users?.meta.changes ?? 0) > 0,
    sessions: sessions?.meta.changes ?? 0,
    lead: (lead?.meta.changes ?? 0) > 0,
    messages: messages?.meta.changes ?? 0,
    emails: emails?.meta.changes ?? 0,
    suppressed: email !== null,
  };
  // No address in the log: the summary and who asked are enough to follow what happened.
  log("info", "personal data erased", { actor, ...summary });
  return summary;
}

/**
 * Erases everything stored under `email` and suppresses it (the admin's "Delete"). `actor` names
 * who asked, for the log line ("admin:{user id}", "member:{user id}").
 */
export function erasePerson(env: Env, email: string, { actor, now = Date.now() }: { actor: string; now?: number }): Promise<ErasureSummary> {
  return erase(env, personByAddress(email), actor, now);
}

/** The signed-in member's "Delete Account": their account, and their address's records if verified. */
export function eraseMember(
  env: Env,
  user: { id: string; email: string | null; emailVerified: boolean },
  { now = Date.now() }: { now?: number } = {},
): Promise<ErasureSummary> {
  return erase(env, personOfMember(user), `member:${user.id}`, now);
}
