/**
 * The copy an investor reads (docs/decisions/113): with the room's watermark on, their own copy of
 * the document's current version, stamped with their address and the day it was made, made once
 * per investor and version and kept in the documents bucket (`room-copies/`); without it, the
 * library's file itself. Every answer is `private, no-store` (a personal copy: no shared cache,
 * and the worker's HTML cache takes only text/html), `inline` unless the room allows downloads
 * and the investor asked for one; each open and download is recorded for the room's report.
 */
import { and, eq } from "drizzle-orm";
import { roomCopies, roomViews } from "~/db/schema";
import { contentDisposition } from "~/features/documents/serve.server";
import { atPrimary } from "~/utils/d1-session.server";
import { batch, getDb, type Db } from "~/utils/db.server";
import { log } from "~/utils/log.server";
import { NO_STORE_NO_REFERRER, PRIVATE_NO_STORE } from "~/utils/no-store";
import type { Access } from "./access.server";
import type { RoomDocument } from "./rooms.server";
import { watermarkPdf } from "./watermark";

export const COPY_PREFIX = "room-copies/";

/** The R2 object of this investor's copy, made now if there is none yet. */
async function stampedCopy(
  env: Env,
  db: Db,
  access: Access,
  doc: RoomDocument,
  now: number,
): Promise<R2ObjectBody | null> {
  const where = and(eq(roomCopies.investorId, access.investor.id), eq(roomCopies.versionId, doc.versionId));
  const kept = await db.select().from(roomCopies).where(where).get();
  if (kept) {
    const object = await env.DOCUMENTS.get(kept.objectKey);
    if (object) return object;
    // The object went missing (a sweep, a restore): the row is stale, make it again.
    await db.delete(roomCopies).where(where);
  }
  const original = await env.DOCUMENTS.get(doc.objectKey);
  if (!original) return null;
  const stampedOn = new Date(now).toISOString().slice(0, 10);
  const bytes = await watermarkPdf(await original.arrayBuffer(), access.investor.email, stampedOn);
  const objectKey = `${COPY_PREFIX}${access.investor.id}/${doc.versionId}/${crypto.randomUUID()}.pdf`;
  await env.DOCUMENTS.put(objectKey, bytes, { httpMetadata: { contentType: "application/pdf" } });
  const [inserted] = await batch(db, [
    db
      .insert(roomCopies)
      .values({
        investorId: access.investor.id,
        versionId: doc.versionId,
        objectKey,
        size: bytes.byteLength,
        stampedOn,
        createdAt: now,
      })
      .onConflictDoNothing(),
  ]);
  if (inserted.meta.changes === 0) {
    // Another request made it first: keep theirs, so one copy per investor and version stays.
    await env.DOCUMENTS.delete(objectKey);
    return stampedCopy(env, db, access, doc, now);
  }
  return env.DOCUMENTS.get(objectKey);
}

/** The answer for one of the room's documents, recorded as an open or a download. */
export async function copyResponse(
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
  db: Db,
  access: Access,
  doc: RoomDocument,
  { download, now = Date.now() }: { download: boolean; now?: number },
): Promise<Response | null> {
  let object: R2ObjectBody | null;
  try {
    object = access.room.watermark
      ? await stampedCopy(env, db, access, doc, now)
      : await env.DOCUMENTS.get(doc.objectKey);
  } catch (error) {
    log("error", "[rooms] the copy could not be made", { document: doc.id, error });
    return new Response("This copy could not be prepared. Please try again later.", {
      status: 503,
      headers: { "Cache-Control": PRIVATE_NO_STORE, "Content-Type": "text/plain; charset=utf-8", "Retry-After": "60" },
    });
  }
  if (!object) return null;
  // Recorded after the response, in a D1 session of its own (as the library counts its downloads).
  ctx.waitUntil(
    getDb(atPrimary(env))
      .insert(roomViews)
      .values({
        invitationId: access.invitation.id,
        documentId: doc.id,
        versionId: doc.versionId,
        kind: download ? "download" : "open",
        at: now,
      })
      .then(
        () => undefined,
        (error: unknown) => log("warn", "[rooms] view not recorded", { error }),
      ),
  );
  const disposition = contentDisposition(doc.title);
  return new Response(object.body, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Length": String(object.size),
      "Content-Disposition": download ? disposition.replace(/^inline/, "attachment") : disposition,
      ...NO_STORE_NO_REFERRER,
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** Deletes every watermarked copy made for an investor (their erasure: the rows go by cascade). */
export async function deleteInvestorCopies(env: Env, investorId: string): Promise<void> {
  let cursor: string | undefined;
  do {
    const listed = await env.DOCUMENTS.list({ prefix: `${COPY_PREFIX}${investorId}/`, cursor, limit: 1000 });
    if (listed.objects.length) await env.DOCUMENTS.delete(listed.objects.map((o) => o.key));
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor);
}
