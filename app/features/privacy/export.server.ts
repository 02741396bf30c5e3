/**
 * "Download my data" and the admin's "Export this person" (docs/decisions/019-personal-data.md):
 * everything stored about one person as one JSON document. Each table's exported columns are
 * listed here, and every column left out is named with the reason: a new column fails
 * `npm run typecheck` (EVERY_PERSONAL_COLUMN_DECIDED) until it is in one or the other, and
 * tests/worker/privacy.test.ts checks the same against D1's own columns.
 */
import { and, asc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import {
  contactMessages,
  investors,
  leads as leadsTable,
  mailOutbox,
  newsletterTokens,
  roomInvitations,
  rooms,
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
import { recordOf, type InvestorRecord } from "~/features/engagement/record.server";
import { batch, type Db, type Statement } from "~/utils/db.server";
import { type ColumnNames, type EveryKeyDecided } from "~/utils/decided";
import { BARE_NO_STORE } from "~/utils/no-store";

/** The tables that hold personal data, their exported columns, and the document's key for each. */
export const EXPORTED = {
  users: {
    section: "memberAccounts",
    columns: [
      "id",
      "subject",
      "email",
      "email_verified",
      "first_name",
      "last_name",
      "profile_image_url",
      "role",
      "created_at",
      "last_login_at",
    ],
  },
  sessions: { section: "sessions", columns: ["created_at", "last_seen_at"] },
  leads: {
    section: "newsletter",
    columns: [
      "id",
      "email",
      "first_name",
      "last_name",
      "source",
      "user_agent",
      "referrer",
      "client_timestamp",
      "page_path",
      "subscribed_at",
      "status",
      "consent_method",
      "consent_version",
      "confirmed_at",
      "unsubscribed_at",
      "topic",
      "handed_off_at",
      "alert_ventures",
      "alert_kinds",
      "event_reminders",
    ],
  },
  newsletter_tokens: { section: "pendingConfirmationLinks", columns: ["created_at"] },
  contact_messages: {
    section: "contactMessages",
    columns: [
      "id",
      "name",
      "email",
      "subject",
      "message",
      "user_id",
      "user_agent",
      "created_at",
      "status",
      "answered_at",
      "answered_by",
    ],
  },
  mail_outbox: {
    section: "emails",
    columns: [
      "kind",
      "recipient",
      "subject",
      "status",
      "attempts",
      "created_at",
      "sent_at",
      "next_attempt_at",
      "contact_message_id",
    ],
  },
} as const satisfies Record<string, { section: string; columns: readonly string[] }>;

export type PersonalTable = keyof typeof EXPORTED;

/** Columns of the personal tables deliberately left out of the export, and why. */
export const NOT_EXPORTED = {
  users: {},
  sessions: {
    id: "the SHA-256 of the session cookie's token: a credential, not information about the person",
    user_id: "the member record's id, exported with the member record",
  },
  leads: {
    suppressed_at:
      "set only on records the export leaves out: another spelling of the same mailbox was erased or suppressed",
  },
  newsletter_tokens: {
    token_hash: "the SHA-256 of a confirmation link's token: a credential",
    lead_id: "the newsletter record's id, exported with that record",
  },
  contact_messages: {},
  mail_outbox: {
    id: "the outbox's own row number",
    text_body: "may hold a live confirmation or unsubscribe link (a credential); blanked once sent",
    html_body: "the same body as text_body, as HTML",
    headers: "technical header fields (List-Unsubscribe holds a signed link)",
    reply_to: "the address a notification's reply goes to (the person's own, exported with their messages)",
    last_error: "our mail server's diagnostic about a delivery attempt, not about the person",
    leased_until: "when a delivery run's claim on the message ends: our scheduling, not about the person",
    message_id:
      "the id the mail service gave a sent message, to match its delivery events: our bookkeeping, not about the person",
  },
} as const satisfies Record<PersonalTable, Record<string, string>>;

/** The Drizzle table of each personal table, whose columns the lists above must all decide. */
type PersonalTables = {
  users: typeof usersTable;
  sessions: typeof sessionsTable;
  leads: typeof leadsTable;
  newsletter_tokens: typeof newsletterTokens;
  contact_messages: typeof contactMessages;
  mail_outbox: typeof mailOutbox;
};

/**
 * Compiles only while every column of every personal table is in EXPORTED or NOT_EXPORTED: a new
 * column fails `npm run typecheck` here, named, until the export decides it.
 */
export const EVERY_PERSONAL_COLUMN_DECIDED: {
  [T in PersonalTable]: EveryKeyDecided<
    ColumnNames<PersonalTables[T]>,
    (typeof EXPORTED)[T]["columns"][number] | keyof (typeof NOT_EXPORTED)[T]
  >;
} = {
  users: true,
  sessions: true,
  leads: true,
  newsletter_tokens: true,
  contact_messages: true,
  mail_outbox: true,
};

type Row = Record<string, unknown>;

/** Epoch-ms times as ISO 8601 and flags as booleans, so the document reads without a manual. */
function readable(table: PersonalTable, row: Row): Row {
  const out: Row = {};
  for (const [key, value] of Object.entries(row)) {
    if (key.endsWith("_at") && typeof value === "number") out[key] = new Date(value).toISOString();
    else if (table === "users" && key === "email_verified") out[key] = value === 1 || value === true;
    else out[key] = value;
  }
  return out;
}

export interface PersonalDataExport {
  format: "afx-personal-data/1";
  exportedAt: string;
  /** The address the export was made for (null: a member without one). */
  email: string | null;
  /** What the export covers, in a sentence. */
  scope: string;
  memberAccounts: Row[];
  sessions: Row[];
  newsletter: Row[];
  pendingConfirmationLinks: Row[];
  contactMessages: Row[];
  emails: Row[];
  /**
   * The investor rooms the address was invited to, each with what the room recorded (the same
   * record as the room's "What we recorded about you", docs/decisions/117).
   */
  investorRooms: InvestorRoomRecord[];
}

export interface InvestorRoomRecord {
  room: string;
  name: string;
  firm: string;
  invitedAt: string;
  firstOpenedAt: string | null;
  revokedAt: string | null;
  record: InvestorRecord;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The rooms' records of the investor under `email` (none for a member whose address is not verified). */
async function investorRoomsOf(db: Db, email: string | null): Promise<InvestorRoomRecord[]> {
  if (email === null) return [];
  const invitations = await db
    .select({
      id: roomInvitations.id,
      room: rooms.title,
      name: investors.name,
      firm: investors.firm,
      invitedAt: roomInvitations.invitedAt,
      firstOpenedAt: roomInvitations.firstOpenedAt,
      revokedAt: roomInvitations.revokedAt,
    })
    .from(roomInvitations)
    .innerJoin(investors, eq(investors.id, roomInvitations.investorId))
    .innerJoin(rooms, eq(rooms.id, roomInvitations.roomId))
    .where(hasAddress(investors.email, email))
    .orderBy(asc(roomInvitations.invitedAt), asc(roomInvitations.id));
  return Promise.all(
    invitations.map(async ({ id, invitedAt, firstOpenedAt, revokedAt, ...rest }) => ({
      ...rest,
      invitedAt: iso(invitedAt)!,
      firstOpenedAt: iso(firstOpenedAt),
      revokedAt: iso(revokedAt),
      record: await recordOf(db, id),
    })),
  );
}

/**
 * The exported columns of `table` where `condition` holds, as D1 returns them (named as stored;
 * `readable` turns times and flags). Raw SQL (docs/decisions/024-data-layer.md): the column list is
 * EXPORTED's, which the privacy test checks against D1's own, not the builder's typed selection.
 */
const select = (table: PersonalTable, condition: SQL, order = "") =>
  sql`SELECT ${sql.raw(EXPORTED[table].columns.join(", "))} FROM ${sql.identifier(table)} WHERE ${condition}${sql.raw(order)}`;

async function collect(db: Db, person: Person, now: number, also: Statement[] = []): Promise<PersonalDataExport> {
  const ids = await memberIds(db, person);
  const email = person.byAddress ? person.email : null;
  // A record marked suppressed (another spelling of its mailbox was erased) is not exported.
  const theirLead = and(hasAddress(leadsTable.email, email), isNull(leadsTable.suppressedAt))!;
  // One round trip for the rest; the address conditions match nothing when it is not theirs.
  const [users, sessions, leads, tokens, messages, mail] = (await batch(db, [
    select("users", inArray(usersTable.id, ids), " ORDER BY created_at"),
    select("sessions", inArray(sessionsTable.userId, ids), " ORDER BY created_at"),
    select("leads", theirLead),
    select(
      "newsletter_tokens",
      sql`${newsletterTokens.leadId} IN (SELECT ${leadsTable.id} FROM ${leadsTable} WHERE ${theirLead})`,
      " ORDER BY created_at",
    ),
    select("contact_messages", messagesOf(person, ids), " ORDER BY created_at, id"),
    select("mail_outbox", emailsOf(person, ids), " ORDER BY created_at, id"),
    ...also,
  ])) as D1Result<Row>[];
  const investorRooms = await investorRoomsOf(db, email);
  const rows = (table: PersonalTable, result: D1Result<Row> | undefined) =>
    (result?.results ?? []).map((r) => readable(table, r));
  return {
    format: "afx-personal-data/1",
    exportedAt: new Date(now).toISOString(),
    email: person.email,
    scope: person.byAddress
      ? "Everything stored under this e-mail address: member accounts and their sessions, the newsletter and investor-alert subscriptions (each lead names its topic) with their consent records, pending confirmation links, contact messages with the notifications they caused, e-mails sent to it, and the investor rooms it was invited to with what each recorded."
      : "This member account and its sessions, contact messages and their notifications. Records filed under the e-mail address are included only once the sign-in provider has verified the address.",
    memberAccounts: rows("users", users),
    sessions: rows("sessions", sessions),
    newsletter: rows("leads", leads),
    pendingConfirmationLinks: rows("newsletter_tokens", tokens),
    contactMessages: rows("contact_messages", messages),
    emails: rows("mail_outbox", mail),
    investorRooms,
  };
}

/**
 * Everything stored under one e-mail address (the admin's "Export this person"); `also` runs in the
 * same batch (the route's audit entry: no export without it).
 */
export function exportPerson(
  db: Db,
  email: string,
  now = Date.now(),
  also: Statement[] = [],
): Promise<PersonalDataExport> {
  return collect(db, personByAddress(email), now, also);
}

/** The signed-in member's own data ("Download my data"). */
export function exportMember(
  db: Db,
  user: { id: string; email: string | null; emailVerified: boolean },
  now = Date.now(),
) {
  return collect(db, personOfMember(user), now);
}

/** The export as a download that no cache keeps. */
export function exportResponse(document: PersonalDataExport, filePrefix: string): Response {
  const day = document.exportedAt.slice(0, 10);
  return new Response(JSON.stringify(document, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filePrefix}-${day}.json"`,
      "Cache-Control": BARE_NO_STORE,
    },
  });
}
