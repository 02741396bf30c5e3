/**
 * Investor rooms in D1 (docs/rooms.md): the admin's side. Every change writes its audit entry in
 * the same batch, so there is never one without the other. Investors are one record per address
 * across every room and venture; an invitation ties one to one room.
 */
import { and, asc, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import {
  documents,
  documentVersions,
  investors,
  roomDocuments,
  roomInvitations,
  roomNdaAcceptances,
  rooms,
  roomViews,
  type Room,
} from "~/db/schema";
import { auditIfChanged, auditStatement } from "~/features/admin/audit.server";
import { randomToken, sha256Hex } from "~/utils/crypto.server";
import type { MailMessage } from "~/features/mail/message";
import { queuedIds, queueMail } from "~/features/mail/outbox.server";
import { batch, type Db } from "~/utils/db.server";
import { expiryInstant, type RoomInput } from "./forms";

/** A room id: 16 URL-safe random characters, so no room's address can be guessed. */
export const newRoomId = () => randomToken(12);

export const roomTarget = (id: string) => `room ${id}`;

/** The expiry date (YYYY-MM-DD) of a room's `expiresAt`, or null. */
export const expiryDateOf = (expiresAt: number | null) =>
  expiresAt === null ? null : new Date(expiresAt - 86_400_000).toISOString().slice(0, 10);

/** Whether the room still answers its investors: not closed, not past its expiry. */
export const isOpen = (room: Pick<Room, "closedAt" | "expiresAt">, now = Date.now()) =>
  room.closedAt === null && (room.expiresAt === null || now < room.expiresAt);

const fieldsOf = (input: RoomInput) => ({
  title: input.title,
  venture: input.venture,
  nda: input.nda,
  downloads: input.downloads,
  watermark: input.watermark,
  expiresAt: input.expires === null ? null : expiryInstant(input.expires),
});

/** A new room, owned by the admin who opened it; its id. */
export async function createRoom(db: Db, input: RoomInput, actor: string, now = Date.now()): Promise<string> {
  const id = newRoomId();
  await batch(db, [
    db.insert(rooms).values({ id, ...fieldsOf(input), ownerEmail: actor, createdAt: now, updatedAt: now }),
    auditStatement(db, { actor, action: "room.create", target: roomTarget(id), detail: input.title }, now),
  ]);
  return id;
}

/** A room's settings changed; false when there is no such room. */
export async function updateRoom(db: Db, id: string, input: RoomInput, actor: string, now = Date.now()) {
  const [updated] = await batch(db, [
    db
      .update(rooms)
      .set({ ...fieldsOf(input), updatedAt: now })
      .where(eq(rooms.id, id)),
    auditIfChanged(db, { actor, action: "room.update", target: roomTarget(id) }, now),
  ]);
  return updated.meta.changes > 0;
}

/** The owner's visit e-mails on or off. */
export async function setNotifyOwner(db: Db, id: string, on: boolean, actor: string, now = Date.now()) {
  const [updated] = await batch(db, [
    db.update(rooms).set({ notifyOwner: on, updatedAt: now }).where(eq(rooms.id, id)),
    auditIfChanged(db, { actor, action: "room.notify", target: roomTarget(id), detail: on ? "on" : "off" }, now),
  ]);
  return updated.meta.changes > 0;
}

/** Closes a room for good: every investor's next request answers as an unknown page. */
export async function closeRoom(db: Db, id: string, actor: string, now = Date.now()) {
  const [updated] = await batch(db, [
    db
      .update(rooms)
      .set({ closedAt: now, updatedAt: now })
      .where(and(eq(rooms.id, id), isNull(rooms.closedAt))),
    auditIfChanged(db, { actor, action: "room.close", target: roomTarget(id) }, now),
  ]);
  return updated.meta.changes > 0;
}

export const roomById = (db: Db, id: string) => db.select().from(rooms).where(eq(rooms.id, id)).get();

/** Every room, newest first, with how many documents and investors (not revoked) it has. */
export async function listRooms(db: Db) {
  return db
    .select({
      id: rooms.id,
      title: rooms.title,
      venture: rooms.venture,
      closedAt: rooms.closedAt,
      expiresAt: rooms.expiresAt,
      createdAt: rooms.createdAt,
      documents: sql<number>`(SELECT count(*) FROM ${roomDocuments} WHERE ${roomDocuments.roomId} = ${rooms.id})`,
      investors: sql<number>`(SELECT count(*) FROM ${roomInvitations} WHERE ${roomInvitations.roomId} = ${rooms.id} AND ${roomInvitations.revokedAt} IS NULL)`,
    })
    .from(rooms)
    .orderBy(desc(rooms.createdAt), asc(rooms.id));
}

/** The library's documents a room can hold: those with a file, by title. */
export async function libraryDocuments(db: Db) {
  return db
    .select({ id: documents.id, title: documents.title, visibility: documents.visibility, status: documents.status })
    .from(documents)
    .where(isNotNull(documents.currentVersionId))
    .orderBy(asc(documents.title), asc(documents.id));
}

/** The documents a room holds, each with its current version, in the order they were added. */
export async function roomDocumentsOf(db: Db, roomId: string) {
  return db
    .select({
      id: documents.id,
      title: documents.title,
      description: documents.description,
      visibility: documents.visibility,
      versionId: documentVersions.id,
      size: documentVersions.size,
      objectKey: documentVersions.objectKey,
      uploadedAt: documentVersions.uploadedAt,
    })
    .from(roomDocuments)
    .innerJoin(documents, eq(documents.id, roomDocuments.documentId))
    .innerJoin(documentVersions, eq(documentVersions.id, documents.currentVersionId))
    .where(eq(roomDocuments.roomId, roomId))
    .orderBy(asc(roomDocuments.addedAt), asc(documents.title));
}

export type RoomDocument = Awaited<ReturnType<typeof roomDocumentsOf>>[number];

/** Adds a library document to a room: "added", "already" there, or "unknown" (no such document with a file). */
export async function addRoomDocument(db: Db, roomId: string, documentId: string, actor: string, now = Date.now()) {
  const doc = await db
    .select({ id: documents.id, title: documents.title })
    .from(documents)
    .where(and(eq(documents.id, documentId), isNotNull(documents.currentVersionId)))
    .get();
  if (!doc) return "unknown" as const;
  const [inserted] = await batch(db, [
    db.insert(roomDocuments).values({ roomId, documentId, addedAt: now }).onConflictDoNothing(),
    auditIfChanged(db, { actor, action: "room.document.add", target: roomTarget(roomId), detail: documentId }, now),
  ]);
  return inserted.meta.changes > 0 ? ("added" as const) : ("already" as const);
}

export async function removeRoomDocument(db: Db, roomId: string, documentId: string, actor: string, now = Date.now()) {
  const [deleted] = await batch(db, [
    db.delete(roomDocuments).where(and(eq(roomDocuments.roomId, roomId), eq(roomDocuments.documentId, documentId))),
    auditIfChanged(db, { actor, action: "room.document.remove", target: roomTarget(roomId), detail: documentId }, now),
  ]);
  return deleted.meta.changes > 0;
}

/**
 * Invites an investor (one record per address: a known one's name and firm are updated) with a
 * new personal link's token; inviting again someone revoked or invited before gives them a new
 * link (the old one stops working). `mail` makes the invitation from the token: it is queued in
 * the same batch (no invitation without its mail); D1 keeps only the token's hash.
 */
export async function inviteInvestor(
  db: Db,
  roomId: string,
  person: { email: string; name: string; firm: string },
  actor: string,
  mail: (token: string) => MailMessage,
  now = Date.now(),
): Promise<{ queued: number[] }> {
  const token = randomToken();
  const tokenHash = await sha256Hex(token);
  const results = await batch(db, [
    db
      .insert(investors)
      .values({ id: crypto.randomUUID(), ...person, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: investors.email, set: { name: person.name, firm: person.firm, updatedAt: now } }),
    // Raw SQL (docs/decisions/024-data-layer.md): the investor's id by address, inside the batch.
    sql`INSERT INTO ${roomInvitations} (room_id, investor_id, token_hash, invited_by, invited_at)
        SELECT ${roomId}, ${investors.id}, ${tokenHash}, ${actor}, ${now} FROM ${investors} WHERE ${investors.email} = ${person.email}
        ON CONFLICT (room_id, investor_id) DO UPDATE SET token_hash = excluded.token_hash, invited_by = excluded.invited_by,
          invited_at = excluded.invited_at, revoked_at = NULL`,
    auditStatement(db, { actor, action: "room.invite", target: roomTarget(roomId) }, now),
    queueMail(db, mail(token), now),
  ]);
  return { queued: queuedIds(results[3] as D1Result) };
}

/** Revokes an invitation: at once, the room and its documents answer that investor as unknown. */
export async function revokeInvitation(db: Db, roomId: string, invitationId: number, actor: string, now = Date.now()) {
  const [updated] = await batch(db, [
    db
      .update(roomInvitations)
      .set({ revokedAt: now })
      .where(
        and(
          eq(roomInvitations.id, invitationId),
          eq(roomInvitations.roomId, roomId),
          isNull(roomInvitations.revokedAt),
        ),
      ),
    auditIfChanged(
      db,
      { actor, action: "room.revoke", target: roomTarget(roomId), detail: `invitation #${invitationId}` },
      now,
    ),
  ]);
  return updated.meta.changes > 0;
}

/**
 * Every investor of a room with their status for the owner's report: invited, first opened, last
 * seen, how many of the room's documents they opened and how many downloads, the NDA accepted.
 */
export async function roomInvestors(db: Db, roomId: string) {
  const viewsOf = (kind: "open" | "download", distinct: boolean) =>
    sql<number>`(SELECT count(${sql.raw(distinct ? "DISTINCT document_id" : "*")}) FROM ${roomViews} WHERE ${roomViews.invitationId} = ${roomInvitations.id} AND ${roomViews.kind} = ${kind})`;
  return db
    .select({
      invitationId: roomInvitations.id,
      investorId: investors.id,
      email: investors.email,
      name: investors.name,
      firm: investors.firm,
      invitedAt: roomInvitations.invitedAt,
      revokedAt: roomInvitations.revokedAt,
      firstOpenedAt: roomInvitations.firstOpenedAt,
      lastSeenAt: roomInvitations.lastSeenAt,
      documentsOpened: viewsOf("open", true),
      downloads: viewsOf("download", false),
      ndaAcceptedAt: sql<
        number | null
      >`(SELECT max(${roomNdaAcceptances.acceptedAt}) FROM ${roomNdaAcceptances} WHERE ${roomNdaAcceptances.invitationId} = ${roomInvitations.id})`,
    })
    .from(roomInvitations)
    .innerJoin(investors, eq(investors.id, roomInvitations.investorId))
    .where(eq(roomInvitations.roomId, roomId))
    .orderBy(asc(roomInvitations.invitedAt), asc(roomInvitations.id));
}

export type RoomInvestor = Awaited<ReturnType<typeof roomInvestors>>[number];
