/**
 * Whose data an export or an erasure covers (docs/decisions/019-personal-data.md). An admin acts
 * on an e-mail address: every member record, lead, message and e-mail of that address. A member
 * acts on their own account; the lead, messages and e-mails filed under their address are theirs
 * only when the provider verified that address, otherwise anyone could claim someone else's.
 */
import { eq, inArray, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/sqlite-core";
import { contactMessages, mailOutbox, users } from "~/db/schema";
import { type Db } from "~/utils/db.server";
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
export async function memberIds(db: Db, person: Person): Promise<string[]> {
  if (!person.byAddress) return person.userIds;
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(trim(${users.email}))`, person.email));
  return [...new Set([...person.userIds, ...rows.map((r) => r.id)])];
}

/**
 * `value = email`, or a condition that matches nothing when the address is not the person's. The
 * member ids of one person are few: their IN lists stay far below D1's 100 bound parameters.
 */
export function hasAddress(value: SQLWrapper, email: string | null): SQL {
  return email === null ? sql`0` : sql`${value} = ${email}`;
}

/** The contact messages of `person` (sent from the address when it is theirs, or by their member records). */
export function messagesOf(person: Person, ids: string[]): SQL {
  return sql`(${hasAddress(sql`lower(trim(${contactMessages.email}))`, person.byAddress ? person.email : null)} OR ${inArray(contactMessages.userId, ids)})`;
}

/**
 * The outbox e-mails of `person`: those to the address, and the notifications of their contact
 * messages (addressed to the group, but carrying the sender's address, name, subject and text).
 */
export function emailsOf(person: Person, ids: string[]): SQL {
  const messages = new QueryBuilder()
    .select({ id: contactMessages.id })
    .from(contactMessages)
    .where(messagesOf(person, ids));
  return sql`(${hasAddress(sql`lower(${mailOutbox.recipient})`, person.byAddress ? person.email : null)} OR ${inArray(mailOutbox.contactMessageId, messages)})`;
}
