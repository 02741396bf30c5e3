/**
 * What a newsletter signup writes (docs/decisions/005-newsletter-and-leads.md, 016): the lead, in
 * the rate limiter's batch, so that it is stored only within the limit and the unique index
 * settles concurrent repeats.
 */
import { sql, type SQL, type SQLChunk } from "drizzle-orm";
import { leads, newsletterTokens, type LeadStatus, type NewLead } from "~/db/schema";
import { toPublicLead, type PublicLead } from "~/features/leads/lead-list.server";
import { columnName, statement } from "~/utils/db.server";

/** A signup as stored: the lead's fields and its consent record. */
export type SignupRecord = NewLead & { subscribedAt: Date; consentVersion: string };

/** The lead a signup reached, with where it stands after it. */
export interface SignupOutcome {
  /** The address's lead after the batch (whatever the rate limit decided: check it first). */
  lead: (PublicLead & { status: LeadStatus }) | null;
  /** The signup made the lead pending now (new, or back after unsubscribing): a first e-mail is due. */
  started: boolean;
  /** When the newest confirmation link of the lead was made (ms), if any. */
  lastLinkAt: number | null;
}

/** The columns a signup writes, in the INSERT's order; all but the e-mail are rewritten when an unsubscribed address comes back. */
const SIGNUP_COLUMNS = [
  leads.email,
  leads.firstName,
  leads.lastName,
  leads.source,
  leads.userAgent,
  leads.referrer,
  leads.clientTimestamp,
  leads.pagePath,
  leads.subscribedAt,
  leads.consentVersion,
] as const;

const list = (parts: SQLChunk[]) => sql.join(parts, sql`, `);

/**
 * The signup's statements for the limiter's batch (features/forms/rate-limit.server.ts), and how
 * to read their results. Under `guard` (the attempt is within its limit): a new address becomes a
 * pending lead; an unsubscribed one, or one whose address bounced (undeliverable: its owner may
 * have fixed the mailbox), starts over as pending with this signup's consent record; a pending or
 * confirmed one is left as it is. The last statement reads where the address stands.
 *
 * Raw SQL (docs/decisions/024-data-layer.md): an INSERT … SELECT under another table's condition,
 * with an upsert limited to unsubscribed rows, which Drizzle's insert builder cannot say; written
 * over the schema's columns, so a renamed column is a compile error.
 */
export function signupWrite(db: D1Database, lead: SignupRecord) {
  const values = [
    lead.email,
    lead.firstName,
    lead.lastName ?? null,
    lead.source,
    lead.userAgent ?? null,
    lead.referrer ?? null,
    lead.clientTimestamp ?? null,
    lead.pagePath ?? null,
    lead.subscribedAt.getTime(),
    lead.consentVersion,
  ];
  const restart = list(SIGNUP_COLUMNS.filter((c) => c !== leads.email).map((c) => sql`${columnName(c)} = excluded.${columnName(c)}`));
  const statements = (guard: SQL) => [
    statement(
      db,
      sql`INSERT INTO ${leads} (${list(SIGNUP_COLUMNS.map(columnName))}, ${columnName(leads.status)}, ${columnName(leads.consentMethod)})
        SELECT ${list(values.map((v) => sql`${v}`))}, 'pending', 'double-opt-in' WHERE ${guard}
        ON CONFLICT (${columnName(leads.email)}) DO UPDATE SET ${restart}, ${columnName(leads.status)} = 'pending',
          ${columnName(leads.consentMethod)} = 'double-opt-in', ${columnName(leads.confirmedAt)} = NULL, ${columnName(leads.unsubscribedAt)} = NULL
        WHERE ${leads.status} IN ('unsubscribed', 'undeliverable')
        RETURNING ${columnName(leads.id)}`,
    ),
    statement(
      db,
      sql`SELECT ${leads.id} AS id, ${leads.email} AS email, ${leads.firstName} AS firstName, ${leads.lastName} AS lastName,
          ${leads.source} AS source, ${leads.subscribedAt} AS subscribedAt, ${leads.status} AS status,
          (SELECT MAX(${newsletterTokens.createdAt}) FROM ${newsletterTokens} WHERE ${newsletterTokens.leadId} = ${leads.id}) AS lastLinkAt
        FROM ${leads} WHERE ${leads.email} = ${lead.email}`,
    ),
  ];
  const outcome = ([inserted, current]: D1Result[]): SignupOutcome => {
    type Row = Omit<PublicLead, "subscribedAt"> & { subscribedAt: number; status: LeadStatus; lastLinkAt: number | null };
    const row = current?.results[0] as Row | undefined;
    return {
      lead: row ? { ...toPublicLead({ ...row, subscribedAt: new Date(row.subscribedAt) }), status: row.status } : null,
      started: (inserted?.results.length ?? 0) > 0,
      lastLinkAt: row?.lastLinkAt ?? null,
    };
  };
  return { statements, outcome };
}
