/**
 * What a newsletter signup writes (docs/decisions/005-newsletter-and-leads.md, 016): the lead, in
 * the rate limiter's batch, so that it is stored only within the limit and the unique index
 * settles concurrent repeats.
 */
import { and, eq, getTableColumns, sql, type SQL, type SQLChunk } from "drizzle-orm";
import { leads, type Lead, type LeadStatus } from "~/db/schema";
import { PAGE_COLUMNS, toPublicLead, type PublicLead } from "~/features/leads/lead-list.server";
import { columnName, type Db, type StatementResult } from "~/utils/db.server";

/** The columns a signup leaves to their defaults or to later events (confirming, unsubscribing, suppression). */
const NOT_BY_SIGNUP = [
  "id",
  "status",
  "consentMethod",
  "confirmedAt",
  "unsubscribedAt",
  "suppressedAt",
  // An alerts subscriber's choice outlives an unsubscribe: signing up again keeps it.
  "alertVentures",
  "alertKinds",
] as const;
type SignupColumn = Exclude<keyof typeof leads.$inferInsert, (typeof NOT_BY_SIGNUP)[number]>;

/**
 * The columns a signup writes, in the table's order: every column of the schema's `leads` but
 * those above, so a new field of the lead is written by the signup with no change here. All but
 * the e-mail are rewritten when an unsubscribed address comes back.
 */
const SIGNUP_COLUMNS = (Object.keys(getTableColumns(leads)) as (keyof typeof leads.$inferInsert)[]).filter(
  (key): key is SignupColumn => !(NOT_BY_SIGNUP as readonly string[]).includes(key),
);

/** A signup as stored: the lead's fields and its consent record, each column given (null when unknown). */
export type SignupRecord = Pick<Lead, SignupColumn>;

/** The lead a signup reached, with where it stands after it. */
export interface SignupOutcome {
  /** The address's lead after the batch (whatever the rate limit decided: check it first). */
  lead: (PublicLead & { status: LeadStatus }) | null;
}

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
export function signupWrite(db: Db, lead: SignupRecord) {
  // Each value by its column's name, encoded as that column stores it (a Date as ms).
  const values = SIGNUP_COLUMNS.map((key) => sql.param(lead[key] ?? null, leads[key]));
  const columns = SIGNUP_COLUMNS.map((key) => leads[key]);
  const restart = list(
    columns
      .filter((c) => c !== leads.email && c !== leads.topic)
      .map((c) => sql`${columnName(c)} = excluded.${columnName(c)}`),
  );
  // Where the address stands after the write: the listed fields, by name.
  const current = db
    .select({ ...PAGE_COLUMNS, status: leads.status })
    .from(leads)
    .where(and(eq(leads.email, lead.email), eq(leads.topic, lead.topic)));
  const statements = (guard: SQL) => [
    sql`INSERT INTO ${leads} (${list(columns.map(columnName))}, ${columnName(leads.status)}, ${columnName(leads.consentMethod)})
        SELECT ${list(values)}, 'pending', 'double-opt-in' WHERE ${guard}
        ON CONFLICT (${columnName(leads.email)}, ${columnName(leads.topic)}) DO UPDATE SET ${restart}, ${columnName(leads.status)} = 'pending',
          ${columnName(leads.consentMethod)} = 'double-opt-in', ${columnName(leads.confirmedAt)} = NULL, ${columnName(leads.unsubscribedAt)} = NULL
        WHERE ${leads.status} IN ('unsubscribed', 'undeliverable')
        RETURNING ${columnName(leads.id)}`,
    current,
  ];
  const outcome = (results: readonly unknown[]): SignupOutcome => {
    const found = (results[1] as StatementResult<typeof current> | undefined)?.[0];
    if (!found) return { lead: null };
    const { status, ...listed } = found;
    return { lead: { ...toPublicLead(listed), status } };
  };
  return { statements, outcome };
}
