/**
 * "What we recorded about you" (docs/decisions/117): everything a room holds about one investor's
 * invitation — opens, downloads, page times, the NDA accepted, their consent choices, their
 * questions — for their own page and their data-rights export.
 */
import { asc, eq } from "drizzle-orm";
import { documents, documentVersions, roomConsents, roomNdaAcceptances, roomViews } from "~/db/schema";
import type { Db } from "~/utils/db.server";
import { questionsOfInvitation } from "./questions.server";
import { pageTimesOf } from "./readings.server";

export async function recordOf(db: Db, invitationId: number) {
  const [views, pageTimes, ndas, consents, questions] = await Promise.all([
    db
      .select({
        kind: roomViews.kind,
        at: roomViews.at,
        document: documents.title,
        version: documentVersions.fileName,
        versionId: roomViews.versionId,
      })
      .from(roomViews)
      .innerJoin(documents, eq(documents.id, roomViews.documentId))
      .innerJoin(documentVersions, eq(documentVersions.id, roomViews.versionId))
      .where(eq(roomViews.invitationId, invitationId))
      .orderBy(asc(roomViews.at)),
    pageTimesOf(db, [invitationId]),
    db
      .select({
        name: roomNdaAcceptances.name,
        acceptedAt: roomNdaAcceptances.acceptedAt,
        text: roomNdaAcceptances.ndaText,
      })
      .from(roomNdaAcceptances)
      .where(eq(roomNdaAcceptances.invitationId, invitationId))
      .orderBy(asc(roomNdaAcceptances.acceptedAt)),
    db
      .select({ analytics: roomConsents.analytics, at: roomConsents.at })
      .from(roomConsents)
      .where(eq(roomConsents.invitationId, invitationId))
      .orderBy(asc(roomConsents.at)),
    questionsOfInvitation(db, invitationId),
  ]);
  const titles = new Map<string, string>();
  if (pageTimes.length) {
    const rows = await db.select({ id: documents.id, title: documents.title }).from(documents);
    for (const r of rows) titles.set(r.id, r.title);
  }
  return {
    views,
    pageTimes: pageTimes.map((p) => ({ ...p, document: titles.get(p.documentId) ?? p.documentId })),
    ndas,
    consents,
    questions,
  };
}

export type InvestorRecord = Awaited<ReturnType<typeof recordOf>>;
