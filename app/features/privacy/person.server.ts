/**
 * Whose data an export or an erasure covers (docs/decisions/019-personal-data.md). An admin acts
 * on an e-mail address: every member record, lead, message and e-mail of that address. A member
 * acts on their own account; the lead, messages and e-mails filed under their address are theirs
 * only when the provider verified that address, otherwise anyone could claim someone else's.
 */
import { eq, sql } from "drizzle-orm";
import { users } from "~/db/schema";
import { getDb } from "~/utils/db.server";
import { normaliseEmail } from "~/utils/mail-address";

export interface Person {
  /** Normalised; null for a member without an address. */
  email: string | null;
  /** Whether records filed under the address (leads, messages, e-mails) belong to this person. */
  byAddress: boolean;
  /** Member records known to be theirs (their own account). */
  userIds: string[];
}

/** Everything filed under an address: the admin's "Export this person" and "Delete". */
export function personByAddress(email: string): Person {
  return { email: normaliseEmail(email), byAddress: true, userIds: [] };
}

/** The signed-in member's own data. */
export function personOfMember(user: { id: string; email: string | null; emailVerified: boolean }): Person {
  const email = user.email ? normaliseEmail(user.email) : null;
  return { email, byAddress: Boolean(email && user.emailVerified), userIds: [user.id] };
}

/** The ids of the member records of `person`. */
export async function memberIds(db: D1Database, person: Person): Promise<string[]> {
  if (!person.byAddress) return person.userIds;
  const rows = await getDb({ DB: db })
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(trim(${users.email}))`, person.email));
  return [...new Set([...person.userIds, ...rows.map((r) => r.id)])];
}

/** `?, ?, …` for an IN list (SQLite's IN () is valid and matches nothing). */
export const placeholders = (values: readonly unknown[]) => values.map(() => "?").join(", ");

/** The contact messages of `person` (sent from the address when it is theirs, or by their member records), as SQL. */
export function messagesOf(person: Person, ids: readonly string[]): { sql: string; params: unknown[] } {
  return { sql: `lower(trim(email)) = ? OR user_id IN (${placeholders(ids)})`, params: [person.byAddress ? person.email : null, ...ids] };
}

/**
 * The outbox e-mails of `person`: those to the address, and the notifications of their contact
 * messages (addressed to the group, but carrying the sender's address, name, subject and text).
 */
export function emailsOf(person: Person, ids: readonly string[]): { sql: string; params: unknown[] } {
  const messages = messagesOf(person, ids);
  return {
    sql: `lower(recipient) = ? OR contact_message_id IN (SELECT id FROM contact_messages WHERE ${messages.sql})`,
    params: [person.byAddress ? person.email : null, ...messages.params],
  };
}
