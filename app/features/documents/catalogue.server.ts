/**
 * The document library's catalogue in D1 (docs/decisions/070-document-library.md): what is
 * published, who may read it, and its versions' R2 objects. Every admin change writes its audit
 * entry in the same batch.
 */
import { and, asc, desc, eq, gte, inArray, isNull, ne, sql } from "drizzle-orm";
import { documentDownloads, documents, documentVersions } from "~/db/schema";
import { auditIfChanged, auditStatement } from "~/features/admin/audit.server";
import { contentChanged } from "~/features/content/generation.server";
import { batch, read, together, type Db, type Statement } from "~/utils/db.server";
import { type DocumentCategory, type DocumentVisibility } from "./library";

const DAY_MS = 86_400_000;

/** What a served file needs: the document's rules, the version's object, its name and its date. */
export interface ServedVersion {
  documentId: string;
  visibility: DocumentVisibility;
  objectKey: string;
  size: number;
  sha256: string;
  /** The document's title: the name a reader's download gets (never the uploader's file name). */
  title: string;
  /** Last-Modified: when the version became current (stable URL), or was uploaded (its own URL). */
  modifiedAt: number;
}

const servedColumns = {
  documentId: documents.id,
  visibility: documents.visibility,
  objectKey: documentVersions.objectKey,
  size: documentVersions.size,
  sha256: documentVersions.sha256,
  title: documents.title,
};

/**
 * The current version of the published document at this stable path, dated when it became
 * current: restoring an older version moves Last-Modified forwards, never back.
 */
export async function publishedAtPath(db: Db, path: string): Promise<ServedVersion | undefined> {
  return db
    .select({
      ...servedColumns,
      modifiedAt: sql<number>`coalesce(${documents.currentSince}, ${documentVersions.uploadedAt})`.mapWith(Number),
    })
    .from(documents)
    .innerJoin(documentVersions, eq(documentVersions.id, documents.currentVersionId))
    .where(and(eq(documents.path, path), eq(documents.status, "published")))
    .get();
}

/**
 * A published document's version with these bytes, unless withdrawn. The same bytes may be in two
 * documents: a public one is preferred, so a members-only twin never hides a file anyone may read.
 */
export async function publishedVersion(db: Db, sha256: string): Promise<ServedVersion | undefined> {
  return db
    .select({ ...servedColumns, modifiedAt: documentVersions.uploadedAt })
    .from(documentVersions)
    .innerJoin(documents, eq(documents.id, documentVersions.documentId))
    .where(
      and(eq(documentVersions.sha256, sha256), eq(documents.status, "published"), isNull(documentVersions.withdrawnAt)),
    )
    .orderBy(sql`${documents.visibility} = 'public' DESC`)
    .get();
}

/**
 * For an admin's preview: the current version at this stable path, or the version with these
 * bytes, whatever the document's status or the version's withdrawal.
 */
export async function anyVersion(
  db: Db,
  by: { path: string } | { sha256: string },
): Promise<ServedVersion | undefined> {
  const query = db
    .select({ ...servedColumns, modifiedAt: documentVersions.uploadedAt })
    .from(documentVersions)
    .innerJoin(documents, eq(documents.id, documentVersions.documentId));
  return "path" in by
    ? query.where(and(eq(documents.path, by.path), eq(documentVersions.id, documents.currentVersionId))).get()
    : query.where(eq(documentVersions.sha256, by.sha256)).get();
}

/** One more download of the document today (run after the response: waitUntil). */
export async function countDownload(db: Db, documentId: string, now = Date.now()): Promise<void> {
  await db
    .insert(documentDownloads)
    .values({ documentId, day: Math.floor(now / DAY_MS), count: 1 })
    .onConflictDoUpdate({
      target: [documentDownloads.documentId, documentDownloads.day],
      set: { count: sql`${documentDownloads.count} + 1` },
    });
}

/** A published document as the documents page lists it. */
export interface ListedDocument {
  id: string;
  path: string;
  title: string;
  description: string;
  category: DocumentCategory;
  ventureId: string | null;
  visibility: DocumentVisibility;
  size: number;
  updatedAt: number;
}

/**
 * The published documents, members-only ones only for members: the latest version first, then in
 * the order they were added (the starting documents in their catalogue's order).
 */
export async function listPublished(db: Db, { members }: { members: boolean }): Promise<ListedDocument[]> {
  const [rows] = await together(db, [
    db
      .select({
        id: documents.id,
        path: documents.path,
        title: documents.title,
        description: documents.description,
        category: documents.category,
        ventureId: documents.ventureId,
        visibility: documents.visibility,
        size: documentVersions.size,
        updatedAt: documentVersions.uploadedAt,
      })
      .from(documents)
      .innerJoin(documentVersions, eq(documentVersions.id, documents.currentVersionId))
      .where(
        and(
          eq(documents.status, "published"),
          // A rooms-only document is listed nowhere: only a room's investors read it (docs/rooms.md).
          members ? ne(documents.visibility, "rooms") : eq(documents.visibility, "public"),
        ),
      )
      .orderBy(desc(documentVersions.uploadedAt), sql`${documents}.rowid`),
  ]);
  return rows;
}

/** Every document for the admin list: its current version and its downloads of the last 30 days. */
export async function listForAdmin(db: Db, now = Date.now()) {
  const since = Math.floor(now / DAY_MS) - 29;
  const downloads = db
    .select({
      documentId: documentDownloads.documentId,
      total: sql<number>`sum(${documentDownloads.count})`.as("total"),
    })
    .from(documentDownloads)
    .where(gte(documentDownloads.day, since))
    .groupBy(documentDownloads.documentId)
    .as("downloads");
  return read(
    db,
    db
      .select({
        id: documents.id,
        path: documents.path,
        title: documents.title,
        category: documents.category,
        ventureId: documents.ventureId,
        visibility: documents.visibility,
        status: documents.status,
        withdrawnAt: documents.withdrawnAt,
        // Named apart from the document's `id`: the list is read in a batch (`together`).
        versionId: sql<number | null>`${documentVersions.id}`.as("version_id"),
        sha256: documentVersions.sha256,
        size: documentVersions.size,
        versionUploadedAt: documentVersions.uploadedAt,
        /** The current version's number: its place among the document's uploads (v1 the first). */
        versionNumber: sql<number>`(SELECT count(*) FROM ${documentVersions} AS v WHERE v.document_id = ${documents.id} AND v.id <= ${documents.currentVersionId})`,
        updatedAt: documents.updatedAt,
        downloads: sql<number>`coalesce(${downloads.total}, 0)`,
      })
      .from(documents)
      .leftJoin(documentVersions, eq(documentVersions.id, documents.currentVersionId))
      .leftJoin(downloads, eq(downloads.documentId, documents.id))
      .orderBy(desc(documents.updatedAt), asc(documents.id)),
  );
}

export type AdminDocumentRow = Awaited<ReturnType<typeof listForAdmin>>[number];

/** One document with every version, newest first, for its admin page. */
export async function documentWithVersions(db: Db, id: string) {
  const document = await db.select().from(documents).where(eq(documents.id, id)).get();
  if (!document) return null;
  const versions = await db
    .select()
    .from(documentVersions)
    .where(eq(documentVersions.documentId, id))
    .orderBy(desc(documentVersions.uploadedAt), desc(documentVersions.id));
  return { document, versions };
}

/** The fields an admin sets on a document. */
export interface DocumentFields {
  title: string;
  description: string;
  category: DocumentCategory;
  ventureId: string | null;
  visibility: DocumentVisibility;
}

/** An uploaded file, already in R2. */
export interface StoredFile {
  objectKey: string;
  size: number;
  sha256: string;
  fileName: string;
}

/**
 * A new document with its first version, current, in one batch with its audit entry. The
 * caller deletes the object when this throws (nothing half-stored).
 */
export async function createDocument(
  db: Db,
  input: DocumentFields & { id: string; path: string; publish: boolean; file: StoredFile; actor: string },
  now = Date.now(),
): Promise<void> {
  const { id, path, publish, file, actor, ...fields } = input;
  await batch(db, [
    db
      .insert(documents)
      .values({ id, path, ...fields, status: publish ? "published" : "draft", createdAt: now, updatedAt: now }),
    db.insert(documentVersions).values({ documentId: id, ...file, uploadedBy: actor, uploadedAt: now }),
    setCurrentToNewest(db, id, now),
    auditStatement(
      db,
      { actor, action: "document.create", target: documentTarget(id), detail: publish ? "published" : "draft" },
      now,
    ),
    contentChanged(db),
  ]);
}

/** A new version of a document, made current, with its audit entry; false when the document is gone. */
export async function addVersion(
  db: Db,
  input: { id: string; file: StoredFile; actor: string; publish: boolean },
  now = Date.now(),
): Promise<boolean> {
  const { id, file, actor, publish } = input;
  const exists = await db.select({ id: documents.id }).from(documents).where(eq(documents.id, id)).get();
  if (!exists) return false;
  await batch(db, [
    db.insert(documentVersions).values({ documentId: id, ...file, uploadedBy: actor, uploadedAt: now }),
    setCurrentToNewest(db, id, now),
    db
      .update(documents)
      .set({ updatedAt: now, ...(publish ? { status: "published" as const } : {}) })
      .where(eq(documents.id, id)),
    auditStatement(db, { actor, action: "document.version", target: documentTarget(id), detail: file.sha256 }, now),
    contentChanged(db),
  ]);
  return true;
}

/** The newest version of the document becomes current (within the batch that inserted it). */
function setCurrentToNewest(db: Db, id: string, now: number): Statement {
  return db
    .update(documents)
    .set({
      currentVersionId: sql`(SELECT max(${documentVersions.id}) FROM ${documentVersions} WHERE ${documentVersions.documentId} = ${id})`,
      currentSince: now,
    })
    .where(eq(documents.id, id));
}

export const documentTarget = (id: string) => `document ${id}`;

/** Edits a document's fields; false when it is gone. */
export async function updateFields(db: Db, id: string, fields: DocumentFields, actor: string, now = Date.now()) {
  const [updated] = await batch(db, [
    db
      .update(documents)
      .set({ ...fields, updatedAt: now })
      .where(eq(documents.id, id))
      .returning({ id: documents.id }),
    auditIfChanged(db, { actor, action: "document.edit", target: documentTarget(id) }, now),
    contentChanged(db),
  ]);
  return updated.length > 0;
}

/** Publishes or withdraws a document (a published one withdrawn is marked so); false when it is gone. */
export async function setStatus(db: Db, id: string, publish: boolean, actor: string, now = Date.now()) {
  const [updated] = await batch(db, [
    db
      .update(documents)
      .set({
        status: publish ? "published" : "draft",
        updatedAt: now,
        withdrawnAt: publish
          ? null
          : sql`CASE WHEN ${documents.status} = 'published' THEN ${now} ELSE ${documents.withdrawnAt} END`,
      })
      .where(eq(documents.id, id))
      .returning({ id: documents.id }),
    auditIfChanged(
      db,
      { actor, action: publish ? "document.publish" : "document.unpublish", target: documentTarget(id) },
      now,
    ),
    contentChanged(db),
  ]);
  return updated.length > 0;
}

/**
 * Makes one of the document's own versions current again (a withdrawn one is served again); false
 * when either is gone.
 */
export async function restoreVersion(db: Db, id: string, versionId: number, actor: string, now = Date.now()) {
  const [updated] = await batch(db, [
    db
      .update(documents)
      .set({ currentVersionId: versionId, currentSince: now, updatedAt: now })
      .where(
        and(
          eq(documents.id, id),
          inArray(
            sql`${versionId}`,
            db.select({ id: documentVersions.id }).from(documentVersions).where(eq(documentVersions.documentId, id)),
          ),
        ),
      )
      .returning({ id: documents.id }),
    auditIfChanged(
      db,
      { actor, action: "document.restore", target: documentTarget(id), detail: `version ${versionId}` },
      now,
    ),
    db
      .update(documentVersions)
      .set({ withdrawnAt: null })
      .where(
        and(eq(documentVersions.id, versionId), eq(documentVersions.documentId, id), currentIs(db, id, versionId)),
      ),
    contentChanged(db),
  ]);
  return updated.length > 0;
}

/** The document's current version is this one (SQL, for a batch that has just set it). */
const currentIs = (db: Db, id: string, versionId: number) =>
  inArray(sql`${versionId}`, db.select({ id: documents.currentVersionId }).from(documents).where(eq(documents.id, id)));

/**
 * Withdraws one superseded version: its own URL then answers as an unknown path (072). The
 * current version cannot be withdrawn (restore another first, or unpublish the document); false
 * when the version is not one of the document's, is current, or was withdrawn already.
 */
export async function withdrawVersion(db: Db, id: string, versionId: number, actor: string, now = Date.now()) {
  const [updated] = await batch(db, [
    db
      .update(documentVersions)
      .set({ withdrawnAt: now })
      .where(
        and(
          eq(documentVersions.id, versionId),
          eq(documentVersions.documentId, id),
          isNull(documentVersions.withdrawnAt),
          ne(
            sql`${versionId}`,
            sql`coalesce((SELECT ${documents.currentVersionId} FROM ${documents} WHERE ${documents.id} = ${id}), 0)`,
          ),
        ),
      )
      .returning({ id: documentVersions.id }),
    auditIfChanged(
      db,
      { actor, action: "document.withdraw-version", target: documentTarget(id), detail: `version ${versionId}` },
      now,
    ),
    contentChanged(db),
  ]);
  return updated.length > 0;
}

/**
 * Deletes the document and its versions from the catalogue (with the audit entry); returns the
 * R2 keys the caller then deletes, or null when it was already gone. Catalogue first: a crash
 * between leaves only unreferenced objects, which the orphan sweep removes.
 */
export async function deleteDocument(db: Db, id: string, actor: string, now = Date.now()): Promise<string[] | null> {
  const keys = await db
    .select({ key: documentVersions.objectKey })
    .from(documentVersions)
    .where(eq(documentVersions.documentId, id));
  const [deleted] = await batch(db, [
    db.delete(documents).where(eq(documents.id, id)).returning({ id: documents.id }),
    auditIfChanged(
      db,
      { actor, action: "document.delete", target: documentTarget(id), detail: `${keys.length} file(s)` },
      now,
    ),
    contentChanged(db),
  ]);
  return deleted.length ? keys.map((k) => k.key) : null;
}

/** Which of these R2 keys the catalogue knows (the orphan sweep keeps those). */
export async function knownKeys(db: Db, keys: readonly string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows = await db
    .select({ key: documentVersions.objectKey })
    .from(documentVersions)
    .where(inArray(documentVersions.objectKey, [...keys]));
  return new Set(rows.map((r) => r.key));
}
