/**
 * Page times (docs/decisions/116): a reading begins when a consenting investor opens a document
 * in the room's viewer; each report the viewer sends is checked (`checkReport`) against the
 * version's pages and the time since the reading's last accepted report, then added to its pages.
 * Nothing is stored for an investor who has not consented, or who withdrew.
 */
import { and, eq, inArray, isNotNull, lt, sql } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import {
  documentPageCounts,
  roomInvitations,
  roomPageTimes,
  roomPreferences,
  roomReadings,
  roomViews,
} from "~/db/schema";
import { randomToken } from "~/utils/crypto.server";
import { batch, type Db, type Statement } from "~/utils/db.server";
import { checkReport, type Plausibility } from "./plausibility";

/**
 * A library version's page count: stored once, counted with pdf-lib from its R2 object the first
 * time (the watermarked copy has the same pages). Null when the object is missing or unreadable.
 */
export async function pageCountOf(
  env: Pick<Env, "DOCUMENTS">,
  db: Db,
  version: { id: number; objectKey: string },
): Promise<number | null> {
  const [known] = await db.select().from(documentPageCounts).where(eq(documentPageCounts.versionId, version.id));
  if (known) return known.pages;
  const object = await env.DOCUMENTS.get(version.objectKey);
  if (!object) return null;
  try {
    const pdf = await PDFDocument.load(await object.arrayBuffer(), { ignoreEncryption: true, updateMetadata: false });
    const pages = pdf.getPageCount();
    await db.insert(documentPageCounts).values({ versionId: version.id, pages }).onConflictDoNothing();
    return pages;
  } catch {
    return null;
  }
}

/**
 * Begins a reading for the viewer, only while the investor's consent holds: its id, or null (no
 * consent, so no reading and no reports).
 */
export async function startReading(
  db: Db,
  input: { invitationId: number; documentId: string; versionId: number; pageCount: number },
  now = Date.now(),
): Promise<string | null> {
  const id = randomToken(18);
  // Raw SQL (docs/decisions/024-data-layer.md): the row exists only while consent holds, decided
  // in the same statement that writes it.
  const [result] = await batch(db, [
    sql`INSERT INTO ${roomReadings} (id, invitation_id, document_id, version_id, page_count, started_at, last_report_at)
      SELECT ${id}, ${input.invitationId}, ${input.documentId}, ${input.versionId}, ${input.pageCount}, ${now}, ${now}
      FROM ${roomPreferences} WHERE invitation_id = ${input.invitationId} AND analytics_at IS NOT NULL`,
  ]);
  return (result.meta.changes ?? 0) > 0 ? id : null;
}

export type ReportOutcome = Plausibility | { ok: false; reason: "unknown" };

/**
 * One report from the viewer, for the investor of `invitationId` only: a reading of theirs, their
 * consent still in force, and a plausible report. Two statements: the read, and one batch that
 * moves the reading's clock (only if no other report moved it meanwhile) and adds the seconds.
 */
export async function acceptReport(
  db: Db,
  input: { invitationId: number; readingId: string; pages: unknown },
  now = Date.now(),
): Promise<ReportOutcome> {
  const [reading] = await db
    .select({ pageCount: roomReadings.pageCount, lastReportAt: roomReadings.lastReportAt })
    .from(roomReadings)
    .innerJoin(roomPreferences, eq(roomPreferences.invitationId, roomReadings.invitationId))
    .where(
      and(
        eq(roomReadings.id, input.readingId),
        eq(roomReadings.invitationId, input.invitationId),
        isNotNull(roomPreferences.analyticsAt),
      ),
    );
  if (!reading) return { ok: false, reason: "unknown" };
  const checked = checkReport(input.pages, reading.pageCount, reading.lastReportAt, now);
  if (!checked.ok) return checked;
  const clock = sql`(SELECT last_report_at FROM ${roomReadings} WHERE id = ${input.readingId}) = ${now}`;
  const statements: Statement[] = [
    db
      .update(roomReadings)
      .set({ lastReportAt: now })
      .where(and(eq(roomReadings.id, input.readingId), eq(roomReadings.lastReportAt, reading.lastReportAt))),
    // Raw SQL (docs/decisions/024-data-layer.md): each page's seconds only if the clock moved to
    // this report (a second report racing this one adds nothing), an upsert the builder cannot
    // make conditional.
    ...checked.pages.map(
      (p) => sql`INSERT INTO ${roomPageTimes} (reading_id, page, ms)
        SELECT ${input.readingId}, ${p.page}, ${p.ms} WHERE ${clock}
        ON CONFLICT (reading_id, page) DO UPDATE SET ms = ms + excluded.ms`,
    ),
  ];
  await batch(db, statements);
  return checked;
}

/** Page times of a set of invitations, summed per invitation, document, version and page. */
export async function pageTimesOf(db: Db, invitationIds: number[]) {
  if (!invitationIds.length) return [];
  return db
    .select({
      invitationId: roomReadings.invitationId,
      documentId: roomReadings.documentId,
      versionId: roomReadings.versionId,
      page: roomPageTimes.page,
      ms: sql<number>`sum(${roomPageTimes.ms})`.mapWith(Number),
    })
    .from(roomPageTimes)
    .innerJoin(roomReadings, eq(roomReadings.id, roomPageTimes.readingId))
    .where(inArray(roomReadings.invitationId, invitationIds))
    .groupBy(roomReadings.invitationId, roomReadings.documentId, roomReadings.versionId, roomPageTimes.page)
    .orderBy(roomReadings.documentId, roomReadings.versionId, roomPageTimes.page);
}

/**
 * "Erase my reading record": the investor's page times and readings and their opens and downloads
 * in this room, in one batch. The invitation (with when they first opened the room), the NDA
 * acceptance and the consent record stay.
 */
export function eraseReadingRecord(db: Db, invitationId: number): Statement[] {
  return [
    db.delete(roomReadings).where(eq(roomReadings.invitationId, invitationId)),
    db.delete(roomViews).where(eq(roomViews.invitationId, invitationId)),
  ];
}

const MONTH_MS = 30.44 * 24 * 60 * 60 * 1000;

/**
 * The Cron Trigger's sweep (docs/decisions/117): readings (with their page times) whose last report
 * is older than `months`, and opens and downloads as old. Returns how many rows went.
 */
export async function sweepReadingRecords(db: Db, months: number, now = Date.now()): Promise<number> {
  const before = Math.floor(now - months * MONTH_MS);
  const [readings, views] = await batch(db, [
    db.delete(roomReadings).where(lt(roomReadings.lastReportAt, before)),
    db.delete(roomViews).where(lt(roomViews.at, before)),
  ]);
  return (readings.meta.changes ?? 0) + (views.meta.changes ?? 0);
}

/** The invitation ids of one room (the report reads their page times). */
export async function invitationIdsOf(db: Db, roomId: string): Promise<number[]> {
  const rows = await db
    .select({ id: roomInvitations.id })
    .from(roomInvitations)
    .where(eq(roomInvitations.roomId, roomId));
  return rows.map((r) => r.id);
}
