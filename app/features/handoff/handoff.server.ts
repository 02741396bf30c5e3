/**
 * The newsletter's hand-off to its host (docs/decisions/098): the host writes and sends the
 * newsletter, this site collects and confirms its subscribers. An export hands the confirmed
 * subscribers (all, or those not handed off before) to the host in its import columns and records
 * who went, so each one's consent record can be shown; an import reads the host's own export back
 * and ends here every subscription that ended there, as our own unsubscribe does.
 */
import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { auditLog, handoffLeads, leads, subscriberHandoffs, type HandoffFormat, type HandoffScope } from "~/db/schema";
import { pages } from "~/content/pages";
import { auditStatement, leadTarget } from "~/features/admin/audit.server";
import {
  HOST_NAMES,
  IMPORT_COLUMNS,
  importRow,
  parseCsv,
  recogniseExport,
  type HandoffSubscriber,
} from "~/features/handoff/hosts";
import { pagedCsvStream } from "~/features/leads/csv.server";
import { CONSENT_COPY } from "~/features/leads/newsletter";
import { unsubscribeLeads } from "~/features/leads/subscription.server";
import { readForm } from "~/features/forms/body.server";
import { HANDOFF_FORMATS, HANDOFF_SCOPES } from "~/features/handoff/hosts";
import { getConfig } from "~/utils/config.server";
import { batch, columnName, getDb, together, type Db } from "~/utils/db.server";
import { normaliseEmail } from "~/utils/mail-address";
import { BARE_NO_STORE } from "~/utils/no-store";

/** The hand-off page, and what its address says after a "new" export found nobody new. */
export const HANDOFF_PAGE = pages.subscriberHandoff.path;
export const NOBODY_NEW = "nobody-new";

/** A confirmed newsletter subscriber a host may be given: never pending, unsubscribed, bounced, suppressed or erased. */
const handable = and(eq(leads.topic, "newsletter"), eq(leads.status, "confirmed"), isNull(leads.suppressedAt));

export interface Handoff {
  id: number;
  at: number;
  actor: string;
  format: HandoffFormat;
  scope: HandoffScope;
  count: number;
}

/**
 * Records an export: the hand-off, the leads it holds (every handable subscriber, or for "new"
 * those never handed off), their first hand-off time, its count and its audit entry, in one batch
 * (a transaction: two admins exporting at once never hand the same "new" subscriber twice).
 * Raw SQL (docs/decisions/024-data-layer.md): the batch's own new hand-off is the table's latest row.
 */
export async function recordHandoff(
  db: Db,
  { actor, format, scope }: { actor: string; format: HandoffFormat; scope: HandoffScope },
  now = Date.now(),
): Promise<Handoff> {
  const latest = sql`(SELECT max(${subscriberHandoffs.id}) FROM ${subscriberHandoffs})`;
  const chosen = and(handable, scope === "new" ? isNull(leads.handedOffAt) : undefined);
  const [, , , , [handoff]] = await batch(db, [
    db.insert(subscriberHandoffs).values({ at: now, actor, format, scope, count: 0 }),
    sql`INSERT INTO ${handoffLeads} (${sql.identifier(handoffLeads.handoffId.name)}, ${sql.identifier(handoffLeads.leadId.name)})
        SELECT ${latest}, ${leads.id} FROM ${leads} WHERE ${chosen}`,
    db
      .update(leads)
      .set({ handedOffAt: new Date(now) })
      .where(
        and(
          isNull(leads.handedOffAt),
          inArray(
            leads.id,
            db.select({ id: handoffLeads.leadId }).from(handoffLeads).where(eq(handoffLeads.handoffId, latest)),
          ),
        ),
      ),
    db
      .update(subscriberHandoffs)
      .set({ count: sql`(SELECT COUNT(*) FROM ${handoffLeads} WHERE ${handoffLeads.handoffId} = ${latest})` })
      .where(eq(subscriberHandoffs.id, latest)),
    db.select().from(subscriberHandoffs).where(eq(subscriberHandoffs.id, latest)),
    auditStatement(
      db,
      {
        actor,
        action: "subscribers.handoff",
        target: "newsletter subscribers",
        detail: `${HOST_NAMES[format]} CSV, scope ${scope}`,
      },
      now,
    ),
  ]);
  return handoff!;
}

/** The newest hand-offs, newest first (the page's list). */
export function recentHandoffs(db: Db, limit = 25): Promise<Handoff[]> {
  return db
    .select()
    .from(subscriberHandoffs)
    .orderBy(desc(subscriberHandoffs.at), desc(subscriberHandoffs.id))
    .limit(limit);
}

export function handoffById(db: Db, id: number): Promise<Handoff | undefined> {
  return db.select().from(subscriberHandoffs).where(eq(subscriberHandoffs.id, id)).get();
}

/** Rows per D1 query, as the leads CSV reads them. */
const PAGE_SIZE = 1000;

const SUBSCRIBER_COLUMNS = {
  id: leads.id,
  email: leads.email,
  firstName: leads.firstName,
  lastName: leads.lastName,
  source: leads.source,
  pagePath: leads.pagePath,
  subscribedAt: leads.subscribedAt,
  confirmedAt: leads.confirmedAt,
  consentMethod: leads.consentMethod,
  consentVersion: leads.consentVersion,
};

/**
 * A hand-off's leads as CSV, one D1 page per pull (in lead id order): `header`, then `row` of each
 * lead still stored (an erased one is gone from it). Formula-safe cells (the leads CSV's writer).
 */
function handoffCsvStream(
  db: Db,
  handoffId: number,
  header: readonly string[],
  row: (lead: HandoffSubscriber & { pagePath: string | null }) => (string | null)[],
): ReadableStream<Uint8Array> {
  return pagedCsvStream({
    header,
    pageSize: PAGE_SIZE,
    page: (after: number | null) =>
      db
        .select(SUBSCRIBER_COLUMNS)
        .from(handoffLeads)
        .innerJoin(leads, eq(leads.id, handoffLeads.leadId))
        .where(and(eq(handoffLeads.handoffId, handoffId), gt(leads.id, after ?? 0)))
        .orderBy(asc(leads.id))
        .limit(PAGE_SIZE),
    cells: row,
    cursorOf: (last) => last.id,
  });
}

/** The hand-off's file for its host: that host's import columns, one row per subscriber. */
export function handoffExportStream(db: Db, handoff: Handoff, siteUrl: string): ReadableStream<Uint8Array> {
  const site = new URL(siteUrl).host;
  return handoffCsvStream(db, handoff.id, IMPORT_COLUMNS[handoff.format], (lead) =>
    importRow(handoff.format, lead, site),
  );
}

/**
 * What a host's list review asks of each address, and nothing more personal: the consent wording
 * and its version, how it was given, where the address signed up, when it signed up and confirmed.
 */
export const CONSENT_RECORD_COLUMNS = [
  "email",
  "consent_text",
  "consent_version",
  "consent_method",
  "source",
  "page",
  "signed_up_at",
  "confirmed_at",
] as const;

/** A hand-off's consent records, one row per address it held that is still stored. */
export function consentRecordsStream(db: Db, handoff: Handoff, siteUrl: string): ReadableStream<Uint8Array> {
  return handoffCsvStream(db, handoff.id, CONSENT_RECORD_COLUMNS, (lead) => [
    lead.email,
    lead.consentVersion ? (CONSENT_COPY[lead.consentVersion as keyof typeof CONSENT_COPY] ?? null) : null,
    lead.consentVersion,
    lead.consentMethod,
    lead.source,
    lead.pagePath ? new URL(lead.pagePath, siteUrl).href : null,
    lead.subscribedAt.toISOString(),
    lead.confirmedAt?.toISOString() ?? null,
  ]);
}

/** A hand-off's file names: the host, the date, the hand-off's number. */
export const handoffFileName = (handoff: Handoff, what: "subscribers" | "consent-records") =>
  `afx-${what}-${handoff.format}-${new Date(handoff.at).toISOString().slice(0, 10)}-${handoff.id}.csv`;

/** How many addresses a preview or a result names (the rest are counted). */
export const NAMED = 20;

/** A list the page names: its first NAMED addresses and how many there are in all. */
export interface Named {
  count: number;
  first: string[];
}

const named = (emails: readonly string[]): Named => ({ count: emails.length, first: emails.slice(0, NAMED) });

/**
 * What an import would do, shown before it does it (docs/decisions/101): the rows read, matched and
 * unknown; the subscriptions it would end (handed off at or after their confirmation here); the
 * readers who left there but subscribed again here since (kept); the rows that match an address
 * here only by Unicode case folding (reported, never acted on).
 */
export interface ImportPreview {
  ok: true;
  step: "preview";
  format: HandoffFormat;
  /** Rows with an address. */
  read: number;
  /** Rows whose address is a newsletter lead here, exactly as stored (ASCII letters folded). */
  matched: number;
  /** Rows whose address is no newsletter lead here. */
  unknown: number;
  /** The leads the import would end, in the order the file lists them (the confirm form's ids). */
  endIds: number[];
  toEnd: Named;
  /** Left there, but confirmed here after their last hand-off (or never handed off): kept. */
  kept: Named;
  /** Match a lead here only when non-ASCII letters are case-folded: reported, never ended. */
  folded: Named;
}

/** What the confirmed import did: the subscriptions it ended, named. */
export interface ImportDone {
  ok: true;
  step: "done";
  format: HandoffFormat;
  ended: Named;
}

export type ImportResult = ImportPreview | ImportDone | { ok: false; reason: string };

/**
 * The address as stored, for matching a host's row: trimmed, ASCII letters lower-cased and nothing
 * else folded (a Kelvin sign, U+212A, stays itself rather than becoming "k").
 */
export const asciiFold = (email: string) => email.trim().replace(/[A-Z]+/g, (s) => s.toLowerCase());

/**
 * Characters of addresses per lookup statement, sent as one JSON parameter (well under D1's 2 MB
 * value limit): a 5 MiB file is read in about twenty statements, not hundreds.
 */
const LOOKUP_CHARS = 256 * 1024;

/** `items` in chunks whose JSON stays under LOOKUP_CHARS. */
function chunks<T>(items: readonly T[], size: (item: T) => number): T[][] {
  const out: T[][] = [];
  let chunk: T[] = [];
  let chars = 0;
  for (const item of items) {
    const n = size(item) + 3;
    if (chunk.length && chars + n > LOOKUP_CHARS) {
      out.push(chunk);
      chunk = [];
      chars = 0;
    }
    chunk.push(item);
    chars += n;
  }
  if (chunk.length) out.push(chunk);
  return out;
}

// Raw SQL (docs/decisions/024-data-layer.md): a correlated subquery over the lead's hand-offs,
// its table named so that no inner table's `id` is taken for the lead's.
const LEAD_ID = sql`${sql.identifier("leads")}.${sql.identifier("id")}`;
/** When the lead was last handed to the host (null: never). */
const lastHandoffAt = sql<number | null>`(SELECT max(${subscriberHandoffs.at}) FROM ${handoffLeads}
  JOIN ${subscriberHandoffs} ON ${subscriberHandoffs.id} = ${handoffLeads.handoffId}
  WHERE ${handoffLeads.leadId} = ${LEAD_ID})`;
/**
 * A subscription an import may end: a confirmed newsletter subscription the host was given at or
 * after its confirmation. One confirmed again here since its last hand-off is a new opt-in the
 * host never had.
 */
const handedOffSinceConfirmed = and(
  eq(leads.topic, "newsletter"),
  eq(leads.status, "confirmed"),
  sql`${leads.confirmedAt} IS NOT NULL AND ${lastHandoffAt} >= ${leads.confirmedAt}`,
);

/** The newsletter leads of these addresses (exactly as given), read a few large chunks at a time. */
async function newsletterLeadsOf(db: Db, addresses: readonly string[]) {
  const found = new Map<string, { id: number; email: string; status: string; endable: boolean }>();
  for (const chunk of chunks(addresses, (a) => a.length)) {
    // Raw SQL (docs/decisions/024-data-layer.md): the chunk's addresses as one JSON parameter.
    const rows = await db
      .select({
        id: leads.id,
        email: leads.email,
        status: leads.status,
        endable: sql<number>`CASE WHEN ${handedOffSinceConfirmed} THEN 1 ELSE 0 END`,
      })
      .from(leads)
      .where(
        and(
          eq(leads.topic, "newsletter"),
          sql`${leads.email} IN (SELECT value FROM json_each(${JSON.stringify(chunk)}))`,
        ),
      );
    for (const r of rows) found.set(r.email, { ...r, endable: Boolean(r.endable) });
  }
  return found;
}

/**
 * Reads a host's own subscriber export and says what importing it would do: nothing changes
 * (docs/decisions/101). A file that is not a recognised export gets the reason.
 */
export async function previewHostExport(db: Db, bytes: Uint8Array): Promise<ImportResult> {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, reason: "The file is not text (UTF-8): choose the CSV file your newsletter host exported." };
  }
  if (text.includes("\u0000"))
    return { ok: false, reason: "The file is not text: choose the CSV file your newsletter host exported." };
  const rows = parseCsv(text);
  const host = rows?.[0] ? recogniseExport(rows[0]) : null;
  if (!rows || !host)
    return {
      ok: false,
      reason:
        "The file is not a recognised subscriber export: its first line must be Substack's, Ghost's or Buttondown's column names.",
    };
  const entries = rows
    .slice(1)
    .map((row) => {
      const raw = row[host.email] ?? "";
      return { email: asciiFold(raw), folded: normaliseEmail(raw), ended: host.ended(row) };
    })
    .filter((e) => e.email !== "");
  // What only Unicode folding would match is looked up too, to be reported.
  const looked = [...new Set(entries.flatMap((e) => (e.folded === e.email ? [e.email] : [e.email, e.folded])))];
  const found = await newsletterLeadsOf(db, looked);
  const toEnd = new Map<number, string>();
  const kept = new Set<string>();
  const folded = new Set<string>();
  let matched = 0;
  for (const e of entries) {
    const lead = found.get(e.email);
    if (!lead) {
      if (e.folded !== e.email && found.has(e.folded)) folded.add(e.email);
      continue;
    }
    matched++;
    if (!e.ended || lead.status !== "confirmed") continue;
    if (lead.endable) toEnd.set(lead.id, lead.email);
    else kept.add(lead.email);
  }
  return {
    ok: true,
    step: "preview",
    format: host.format,
    read: entries.length,
    matched,
    unknown: entries.length - matched,
    endIds: [...toEnd.keys()],
    toEnd: named([...toEnd.values()]),
    kept: named([...kept]),
    folded: named([...folded]),
  };
}

/**
 * Ends, as our own unsubscribe does (the lead unsubscribed, its links retired, no mail, the alerts
 * untouched), the previewed subscriptions `ids` that may still be ended (handed off at or after
 * their confirmation: one confirmed again since the preview is kept), each named in the audit log
 * by its lead and masked address.
 */
export async function endHandedOff(
  db: Db,
  format: HandoffFormat,
  ids: readonly number[],
  actor: string,
  now = Date.now(),
): Promise<ImportDone> {
  const ended: string[] = [];
  for (const chunk of chunks(ids, (id) => String(id).length)) {
    const endable = await db
      .select({ id: leads.id, email: leads.email })
      .from(leads)
      .where(
        and(
          inArray(leads.id, db.select({ id: sql<number>`value` }).from(sql`json_each(${JSON.stringify(chunk)})`)),
          handedOffSinceConfirmed,
        ),
      )
      .orderBy(asc(leads.id));
    if (!endable.length) continue;
    const targets = endable.map((lead) => leadTarget(lead));
    // Raw SQL (docs/decisions/024-data-layer.md): one entry per ended lead from one JSON parameter.
    const audit = sql`INSERT INTO ${auditLog} (${sql.join([auditLog.at, auditLog.actor, auditLog.action, auditLog.target, auditLog.detail].map(columnName), sql`, `)})
      SELECT ${now}, ${actor}, 'subscribers.import', value, ${`${HOST_NAMES[format]} export: left on the host, newsletter ended here`}
      FROM json_each(${JSON.stringify(targets)})`;
    await unsubscribeLeads(
      db,
      { ids: endable.map((l) => l.id), topic: "newsletter", onlyIf: handedOffSinceConfirmed },
      now,
      [audit],
    );
    ended.push(...endable.map((l) => l.email));
  }
  return { ok: true, step: "done", format, ended: named(ended) };
}

/**
 * The reads of handoffCounts: two ranges of leads_audience_idx, from the index alone
 * (migrations/0026; tests/server/audience-plans.test.ts pins their plans).
 */
export const handoffCountQueries = (db: Db) =>
  [
    db
      .select({ n: count() })
      .from(leads)
      .where(and(handable, isNotNull(leads.handedOffAt))),
    db
      .select({ n: count() })
      .from(leads)
      .where(and(handable, isNull(leads.handedOffAt))),
  ] as const;

/** The confirmed newsletter subscribers handed to the host, and those not yet (the page and the dashboard). */
export async function handoffCounts(db: Db): Promise<{ handedOff: number; notYet: number }> {
  const [handedOff, notYet] = await together(db, handoffCountQueries(db));
  return { handedOff: handedOff[0]?.n ?? 0, notYet: notYet[0]?.n ?? 0 };
}

/**
 * An admin's export form post answered: `format` and `scope` checked (400 with the reason), the
 * hand-off recorded, then its CSV as an attachment, streamed; a "new" export with nobody new
 * records nothing and goes back to the page, which says so (303). The caller has checked the origin
 * and the admin.
 */
export async function exportAnswer(request: Request, env: Env, actor: string): Promise<Response> {
  const form = await readForm(request, { maxBytes: 1024 });
  const format = String(form.get("format") ?? "");
  const scope = String(form.get("scope") ?? "");
  const known = <T extends string>(list: readonly T[], value: string): value is T =>
    (list as readonly string[]).includes(value);
  if (!known(HANDOFF_FORMATS, format) || !known(HANDOFF_SCOPES, scope))
    return new Response(
      `Please choose a host (${HANDOFF_FORMATS.join(", ")}) and which subscribers (${HANDOFF_SCOPES.join(" or ")}).`,
      { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": BARE_NO_STORE } },
    );
  const db = getDb(env);
  // Nobody new: say so on the page rather than hand over an empty file and record a hand-off of 0.
  if (scope === "new" && (await handoffCounts(db)).notYet === 0)
    return new Response(null, {
      status: 303,
      headers: { Location: `${HANDOFF_PAGE}?export=${NOBODY_NEW}`, "Cache-Control": BARE_NO_STORE },
    });
  const handoff = await recordHandoff(db, { actor, format, scope });
  return new Response(handoffExportStream(db, handoff, getConfig(env).siteUrl), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${handoffFileName(handoff, "subscribers")}"`,
      "Cache-Control": BARE_NO_STORE,
    },
  });
}
