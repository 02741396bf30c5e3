/**
 * Erasure (docs/decisions/019-personal-data.md): a member's "Delete Account" and the admin's
 * "Delete" of a lead. Every row about the person is deleted (not blanked: a message's subject and
 * a lead's source and dates are personal too, and an empty row answers nobody), in one D1 batch.
 * What stays: the address's entry on the suppression list (a keyed hash, no readable address), so
 * nothing re-adds or mails it later, the anonymous per-day lead counts, and the audit entry a
 * caller asks for, written in the same batch (no erasure without its entry, nor the reverse).
 */
import { inArray, sql } from "drizzle-orm";
import {
  contactMessages,
  investors,
  leads,
  mailOutbox,
  newsletterTokens,
  sessions as sessionsTable,
  users as usersTable,
} from "~/db/schema";
import {
  emailsOf,
  hasAddress,
  memberIds,
  messagesOf,
  personByAddress,
  personOfMember,
  type Person,
} from "~/features/privacy/person.server";
import { deleteInvestorCopies } from "~/features/rooms/copy.server";
import { suppressStatements } from "~/features/privacy/suppression.server";
import { auditStatement, type AuditInput } from "~/features/admin/audit.server";
import { batch, getDb, type Statement } from "~/utils/db.server";
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

async function erase(
  env: Env,
  person: Person,
  actor: string,
  now: number,
  audit?: AuditInput,
): Promise<ErasureSummary> {
  const db = getDb(env);
  const ids = await memberIds(db, person);
  const email = person.byAddress ? person.email : null;
  const [messages, emails, theirLead] = [
    messagesOf(person, ids),
    emailsOf(person, ids),
    hasAddress(leads.email, email),
  ];
  const statements: Statement[] = [
    // The e-mails first: the notifications are found through the messages.
    db.delete(mailOutbox).where(emails),
    db.delete(contactMessages).where(messages),
    db
      .delete(newsletterTokens)
      .where(inArray(newsletterTokens.leadId, db.select({ id: leads.id }).from(leads).where(theirLead))),
    db.delete(leads).where(theirLead),
    db.delete(sessionsTable).where(inArray(sessionsTable.userId, ids)),
    db.delete(usersTable).where(inArray(usersTable.id, ids)),
    // An investor of the rooms under the address: their invitations, codes, NDA acceptances,
    // visits, opens and copies' rows go with it (ON DELETE CASCADE; docs/decisions/114).
    db.delete(investors).where(hasAddress(investors.email, email)),
  ];
  // Only an address that is theirs is suppressed: an unverified claim must not block its owner.
  if (email) statements.push(...(await suppressStatements(env, email, "erased", now)));
  if (audit) {
    // First, so it counts what the deletes after it remove, by their own conditions.
    // Raw SQL (docs/decisions/024-data-layer.md): one row of counts for the entry's INSERT … SELECT.
    const counts = sql`SELECT (SELECT COUNT(*) FROM ${leads} WHERE ${theirLead}) AS lead, (SELECT COUNT(*) FROM ${usersTable} WHERE ${inArray(usersTable.id, ids)}) AS members,
      (SELECT COUNT(*) FROM ${contactMessages} WHERE ${messages}) AS messages, (SELECT COUNT(*) FROM ${mailOutbox} WHERE ${emails}) AS emails`;
    statements.unshift(auditStatement(db, audit, now, { sql: ERASED_SQL, from: counts }));
  }
  const investor = email
    ? await db.select({ id: investors.id }).from(investors).where(hasAddress(investors.email, email)).get()
    : undefined;
  const results = (await batch(db, statements)) as D1Result[];
  if (investor) await deleteInvestorCopies(env, investor.id);
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
  return erase(
    env,
    personByAddress(email),
    actor,
    now,
    audit && { ...audit, detail: `${audit.detail ?? ""}; erased ` },
  );
}

/** The signed-in member's "Delete Account": their account, and their address's records if verified. */
export function eraseMember(
  env: Env,
  user: { id: string; email: string | null; emailVerified: boolean },
  { now = Date.now() }: { now?: number } = {},
): Promise<ErasureSummary> {
  return erase(env, personOfMember(user), `member:${user.id}`, now);
}
