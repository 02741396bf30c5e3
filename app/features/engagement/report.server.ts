/**
 * The owner's reading report (docs/decisions/116): per room document, the chart's figures for its
 * current version; per investor, what they opened and, if they consented, their seconds per page.
 */
import { inArray, max } from "drizzle-orm";
import { documentPageCounts, roomReadings } from "~/db/schema";
import type { Db } from "~/utils/db.server";
import { invitationIdsOf, pageTimesOf } from "./readings.server";
import { pageFigures, type PageFigure } from "./reading-stats";

/** Page counts of versions: stored counts first, then the pages the readings knew. */
async function pageCountsOf(db: Db, versionIds: number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  if (!versionIds.length) return counts;
  const [stored, read] = await Promise.all([
    db.select().from(documentPageCounts).where(inArray(documentPageCounts.versionId, versionIds)),
    db
      .select({ versionId: roomReadings.versionId, pages: max(roomReadings.pageCount) })
      .from(roomReadings)
      .where(inArray(roomReadings.versionId, versionIds))
      .groupBy(roomReadings.versionId),
  ]);
  for (const r of read) if (r.pages) counts.set(r.versionId, r.pages);
  for (const s of stored) counts.set(s.versionId, s.pages);
  return counts;
}

export interface DocumentChart {
  documentId: string;
  title: string;
  figures: PageFigure[];
}

/** One chart per room document (its current version), pages nobody reached included. */
export async function roomCharts(
  db: Db,
  roomId: string,
  docs: readonly { id: string; title: string; versionId: number }[],
): Promise<DocumentChart[]> {
  const ids = await invitationIdsOf(db, roomId);
  const [times, counts] = await Promise.all([
    pageTimesOf(db, ids),
    pageCountsOf(
      db,
      docs.map((d) => d.versionId),
    ),
  ]);
  return docs.map((d) => {
    const rows = times
      .filter((t) => t.documentId === d.id && t.versionId === d.versionId)
      .map((t) => ({ reader: String(t.invitationId), page: t.page, ms: t.ms }));
    const pages = counts.get(d.versionId) ?? Math.max(0, ...rows.map((r) => r.page));
    return { documentId: d.id, title: d.title, figures: pageFigures(rows, pages) };
  });
}

/** Whether a room's invitation exists (the investor's report is only for its own room). */
export async function invitationInRoom(db: Db, roomId: string, invitationId: number) {
  const ids = await invitationIdsOf(db, roomId);
  return ids.includes(invitationId);
}
