/**
 * Erasure (docs/decisions/019-personal-data.md): a member's "Delete Account" and the admin's
 * "Delete" of a lead. Every row about the person is deleted (not blanked: a message's subject and
 * a lead's source and dates are personal too, and an empty row answers nobody), in one D1 batch.
 * What stays: the address's entry on the suppression list (a keyed hash, no readable address), so
 * nothing re-adds or mails it later, the anonymous per-day lead counts, and the audit entry a
 * caller asks for, written in the same batch (no erasure without its entry, nor the reverse).
 */
import { emailsOf, memberIds, messagesOf, personByAddress, personOfMember, placeholders, type Person } from "~/features/privacy/person.server";
import { suppressStatement } from "~/features/privacy/suppression.server";
import { auditStatement, type AuditInput } from "~/features/admin/audit.server";
import { log } from "~/utils/log.server";

export interface ErasureSummary {
  /** A member record was deleted (with its sessions). */
  member: boolean;
  sessions: number;
  /** A newsletter record was deleted (with its confirmation links). */
  lead: boolean;
  messages: number;
  /** E-mails in the outbox to the address or about their messages, sent or queued (queued ones are never sent now). */
  emails: number;
  /** The address is on the suppression list. */
  suppressed: boolean;
}

/**
 * What the erasure deletes, as one row (lead, members, messages, emails), for its audit entry's
 * detail: "lead, member account, 2 message(s), 1 e-mail(s)" or "nothing".
 */
const ERASED_SQL = `coalesce(nullif(rtrim(iif(lead > 0, 'lead, ', '') || iif(members > 0, 'member account, ', '')
  || iif(messages > 0, messages || ' message(s), ', '') || iif(emails > 0, emails || ' e-mail(s), ', ''), ', '), ''), 'nothing')`;

async function erase(env: Env, person: Person, actor: string, now: number, audit?: AuditInput): Promise<ErasureSummary> {
  const db = env.DB;
  const ids = await memberIds(db, person);
  const email = person.byAddress ? person.email : null;
  const inIds = placeholders(ids);
  const [messages, emails] = [messagesOf(person, ids), emailsOf(person, ids)];
  const statements = [
    // The e-mails first: the notifications are found through the messages.
    db.prepare(`DELETE FROM mail_outbox WHERE ${emails.sql}`).bind(...emails.params),
    db.prepare(`DELETE FROM contact_messages WHERE ${messages.sql}`).bind(...messages.params),
    db.prepare("DELETE FROM newsletter_tokens WHERE lead_id IN (SELECT id FROM leads WHERE email = ?1)").bind(email),
    db.prepare("DELETE FROM leads WHERE email = ?1").bind(email),
    db.prepare(`DELETE FROM sessions WHERE user_id IN (${inIds})`).bind(...ids),
    db.prepare(`DELETE FROM users WHERE id IN (${inIds})`).bind(...ids),
  ];
  // Only an address that is theirs is suppressed: an unverified claim must not block its owner.
  if (email) statements.push(await suppressStatement(env, email, "erased", now));
  if (audit) {
    // First, so it counts what the deletes after it remove, by their own conditions.
    const counts = `SELECT (SELECT COUNT(*) FROM leads WHERE email = ?) AS lead, (SELECT COUNT(*) FROM users WHERE id IN (${inIds})) AS members,
      (SELECT COUNT(*) FROM contact_messages WHERE ${messages.sql}) AS messages, (SELECT COUNT(*) FROM mail_outbox WHERE ${emails.sql}) AS emails`;
    statements.unshift(auditStatement(db, audit, now, { sql: ERASED_SQL, from: counts, params: [email, ...ids, ...messages.params, ...emails.params] }));
  }
  const results = await db.batch(statements);
  const [deletedEmails, deletedMessages, , lead, sessions, users] = audit ? results.slice(1) : results;
  const summary: ErasureSummary = {
    member: (users?.meta.changes ?? 0) > 0,
    sessions: sessions?.meta.changes ?? 0,
    lead: (lead?.meta.changes ?? 0) > 0,
    messages: deletedMessages?.meta.changes ?? 0,
    emails: deletedEmails?.meta.changes ?? 0,
    suppressed: email !== null,
  };
  // No address in the log: the summary and who asked are enough to follow what happened.
  log("info", "personal data erased", { actor, ...summary });
  return summary;
}

/**
 * Erases everything stored under `email` and suppresses it (the admin's "Delete"). `actor` names
 * who asked, for the log line ("admin:{user id}", "member:{user id}"); `audit` is the entry to
 * write with it, its detail followed by "; erased …".
 */
export function erasePerson(
  env: Env,
  email: string,
  { actor, now = Date.now(), audit }: { actor: string; now?: number; audit?: AuditInput },
): Promise<ErasureSummary> {
  return erase(env, personByAddress(email), actor, now, audit && { ...audit, detail: `${audit.detail ?? ""}; erased ` });
}

/** The signed-in member's "Delete Account": their account, and their address's records if verified. */
export function eraseMember(
  env: Env,
  user: { id: string; email: string | null; emailVerified: boolean },
  { now = Date.now() }: { now?: number } = {},
): Promise<ErasureSummary> {
  return erase(env, personOfMember(user), `member:${user.id}`, now);
}
