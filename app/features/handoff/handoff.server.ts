/**
 * The newsletter's hand-off to its host (docs/decisions/098): the host writes and sends the
 * newsletter, this site collects and confirms its subscribers. An export hands the confirmed
 * subscribers (all, or those not handed off before) to the host in its import columns and records
 * who went, so each one's consent record can be shown; an import reads the host's own export back
 * and ends here every subscription that ended there, as our own unsubscribe does.
 */
import { and, asc, count, desc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { handoffLeads, leads, subscriberHandoffs, type HandoffFormat, type HandoffScope } from "~/db/schema";
import { auditStatement } from "~/features/admin/audit.server";
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
import { batch, getDb, type Db } from "~/utils/db.server";
import { normaliseEmail } from "~/utils/mail-address";

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

export type ImportResult =
  | {
      ok: true;
      format: HandoffFormat;
      /** Rows with an address. */
      read: number;
      /** Rows whose address is a newsletter lead here. */
      matched: number;
      /** Newsletter subscriptions this import ended here. */
      ended: number;
      /** Rows whose address is no newsletter lead here. */
      unknown: number;
    }
  | { ok: false; reason: string };

/** Addresses per statement: one JSON parameter each, so only the batch's size bounds it. */
const IMPORT_CHUNK = 500;

/**
 * Reads a host's own subscriber export and ends here, as our own unsubscribe does (the lead
 * unsubscribed, its links retired, no mail, the alerts untouched, an audit entry), the newsletter
 * subscription of every address that left there. Nothing else of a lead changes; a file that is not
 * a recognised export changes nothing.
 */
export async function importHostExport(
  db: Db,
  bytes: Uint8Array,
  actor: string,
  now = Date.now(),
): Promise<ImportResult> {
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
    .map((row) => ({ email: normaliseEmail(row[host.email] ?? ""), ended: host.ended(row) }))
    .filter((e) => e.email !== "");
  const addresses = [...new Set(entries.map((e) => e.email))];
  const endedAddresses = [...new Set(entries.filter((e) => e.ended).map((e) => e.email))];
  const known = new Set<string>();
  for (let i = 0; i < addresses.length; i += IMPORT_CHUNK) {
    const chunk = addresses.slice(i, i + IMPORT_CHUNK);
    // Raw SQL (docs/decisions/024-data-layer.md): the chunk's addresses as one JSON parameter.
    const found = await db
      .select({ email: leads.email })
      .from(leads)
      .where(
        and(
          eq(leads.topic, "newsletter"),
          sql`${leads.email} IN (SELECT value FROM json_each(${JSON.stringify(chunk)}))`,
        ),
      );
    for (const f of found) known.add(f.email);
  }
  let ended = 0;
  const toEnd = endedAddresses.filter((e) => known.has(e));
  for (let i = 0; i < toEnd.length; i += IMPORT_CHUNK) {
    // The audit entry counts what the UPDATE before it changed (none: no entry).
    // Raw SQL (docs/decisions/024-data-layer.md): changes() has no builder form.
    const audit = auditStatement(
      db,
      {
        actor,
        action: "subscribers.import",
        target: "newsletter subscribers",
        detail: `${HOST_NAMES[host.format]} export: unsubscribed `,
      },
      now,
      { sql: "n || ' left on the host'", from: sql`SELECT changes() AS n WHERE changes() > 0` },
    );
    ended += await unsubscribeLeads(db, { emails: toEnd.slice(i, i + IMPORT_CHUNK), topic: "newsletter" }, now, [
      audit,
    ]);
  }
  const matched = entries.filter((e) => known.has(e.email)).length;
  return { ok: true, format: host.format, read: entries.length, matched, ended, unknown: entries.length - matched };
}

/** The confirmed newsletter subscribers handed to the host, and those not yet (the page and the dashboard). */
export async function handoffCounts(db: Db): Promise<{ handedOff: number; notYet: number }> {
  const rows = await db
    .select({ handedOff: sql<number>`${leads.handedOffAt} IS NOT NULL`, n: count() })
    .from(leads)
    .where(handable)
    .groupBy(sql`${leads.handedOffAt} IS NOT NULL`);
  const of = (handedOff: boolean) => rows.find((r) => Boolean(r.handedOff) === handedOff)?.n ?? 0;
  return { handedOff: of(true), notYet: of(false) };
}

/**
 * An admin's export form post answered: `format` and `scope` checked (400 with the reason), the
 * hand-off recorded, then its CSV as an attachment, streamed. The caller has checked the origin
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
      `Choose a host (${HANDOFF_FORMATS.join(", ")}) and which subscribers (${HANDOFF_SCOPES.join(" or ")}).`,
      { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } },
    );
  const db = getDb(env);
  const handoff = await recordHandoff(db, { actor, format, scope });
  return new Response(handoffExportStream(db, handoff, getConfig(env).siteUrl), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${handoffFileName(handoff, "subscribers")}"`,
      "Cache-Control": "no-store",
    },
  });
}
