/**
 * "Updated: <title>" (docs/decisions/119): when a document in a room gets a new version, each
 * investor of that room who opened an earlier version of it (an open or download in `room_views`,
 * or a reading in the viewer) gets one mail, exactly once per room, investor and version
 * (`room_update_mails`), unless they stopped such mails for that room (`room_preferences`). The
 * mail's one-click link (a signed link naming the invitation) stops them.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import {
  investors,
  roomDocuments,
  roomInvitations,
  roomPreferences,
  roomReadings,
  roomUpdateMails,
  rooms,
  roomViews,
} from "~/db/schema";
import { announceMail, queuedIds, queueMail } from "~/features/mail/outbox.server";
import { linkId, readLink, signLink, type LinkKind } from "~/features/mail/signed-link.server";
import { roomPath } from "~/features/rooms/paths";
import { isOpen } from "~/features/rooms/rooms.server";
import { getConfig } from "~/utils/config.server";
import { batch, type Db, type Statement } from "~/utils/db.server";
import { log } from "~/utils/log.server";
import { setUpdates } from "./consent.server";
import { updateMail } from "./mails.server";
import { updatesStopPath } from "./paths";

/** The stop link: its subject is the invitation's id; it lives as long as its key. */
const UPDATES_STOP_LINK: LinkKind = { purpose: "room-updates-link", label: "room-updates-stop" };

export const updatesStopToken = (env: Env, invitationId: number) => signLink(env, UPDATES_STOP_LINK, invitationId);

/** The invitation (of room `roomId`) a stop link names, or null. */
export async function stopLinkInvitation(env: Env, db: Db, roomId: string, token: string) {
  const invitationId = linkId(await readLink(env, UPDATES_STOP_LINK, token));
  if (invitationId === null) return null;
  const [row] = await db
    .select({ id: roomInvitations.id, roomTitle: rooms.title, updatesOffAt: roomPreferences.updatesOffAt })
    .from(roomInvitations)
    .innerJoin(rooms, eq(rooms.id, roomInvitations.roomId))
    .leftJoin(roomPreferences, eq(roomPreferences.invitationId, roomInvitations.id))
    .where(and(eq(roomInvitations.id, invitationId), eq(roomInvitations.roomId, roomId)));
  return row ?? null;
}

/** The stop link followed: no more "Updated:" mails of this room for this investor. */
export async function stopUpdates(db: Db, invitationId: number, now = Date.now()) {
  await batch(db, [setUpdates(db, invitationId, false, now)]);
}

/** The line the mail says changed when the upload named none. */
export const DEFAULT_CHANGES = "a new version replaces the one you read; every page may have changed.";

/**
 * Mails the readers of `documentId`'s earlier versions in every open room holding it, for its new
 * version `versionId`. Each mail is queued in the batch that records it, only when that record is
 * new and the investor has not stopped such mails (both decided in the same statements), so an
 * upload pressed twice or two at once mail nobody twice. Returns how many mails were queued.
 */
export async function mailReadersOfNewVersion(
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
  db: Db,
  input: { documentId: string; versionId: number; title: string; changes: string | null },
  now = Date.now(),
): Promise<number> {
  const opened = sql`(EXISTS (SELECT 1 FROM ${roomViews} WHERE ${roomViews.invitationId} = ${roomInvitations.id}
      AND ${roomViews.documentId} = ${input.documentId} AND ${roomViews.versionId} < ${input.versionId})
    OR EXISTS (SELECT 1 FROM ${roomReadings} WHERE ${roomReadings.invitationId} = ${roomInvitations.id}
      AND ${roomReadings.documentId} = ${input.documentId} AND ${roomReadings.versionId} < ${input.versionId}))`;
  const readers = await db
    .select({
      invitationId: roomInvitations.id,
      investorId: investors.id,
      email: investors.email,
      room: { id: rooms.id, title: rooms.title, closedAt: rooms.closedAt, expiresAt: rooms.expiresAt },
    })
    .from(roomDocuments)
    .innerJoin(rooms, eq(rooms.id, roomDocuments.roomId))
    .innerJoin(roomInvitations, eq(roomInvitations.roomId, rooms.id))
    .innerJoin(investors, eq(investors.id, roomInvitations.investorId))
    .leftJoin(roomPreferences, eq(roomPreferences.invitationId, roomInvitations.id))
    .where(
      and(
        eq(roomDocuments.documentId, input.documentId),
        isNull(roomInvitations.revokedAt),
        isNull(roomPreferences.updatesOffAt),
        opened,
        sql`NOT EXISTS (SELECT 1 FROM ${roomUpdateMails} WHERE ${roomUpdateMails.roomId} = ${rooms.id}
          AND ${roomUpdateMails.investorId} = ${investors.id} AND ${roomUpdateMails.versionId} = ${input.versionId})`,
      ),
    );
  const due = readers.filter((r) => isOpen(r.room, now));
  if (!due.length) return 0;
  const { siteUrl } = getConfig(env);
  const statements: Statement[] = [];
  for (const r of due) {
    const stopUrl = new URL(updatesStopPath(r.room.id, await updatesStopToken(env, r.invitationId)), siteUrl).href;
    const mail = updateMail({
      to: r.email,
      title: input.title,
      roomTitle: r.room.title,
      changes: input.changes || DEFAULT_CHANGES,
      roomUrl: new URL(roomPath(r.room.id), siteUrl).href,
      stopUrl,
    });
    statements.push(
      // Raw SQL (docs/decisions/024-data-layer.md): the record only while the investor's updates
      // are on and none was sent for this version, and the mail only when this row went in
      // (`changes()` is this INSERT's), which the builder cannot say.
      sql`INSERT OR IGNORE INTO ${roomUpdateMails} (room_id, investor_id, version_id, sent_at)
        SELECT ${r.room.id}, ${r.investorId}, ${input.versionId}, ${now}
        WHERE NOT EXISTS (SELECT 1 FROM ${roomPreferences} WHERE invitation_id = ${r.invitationId} AND updates_off_at IS NOT NULL)`,
      queueMail(db, mail, now, { onlyIf: sql`changes() > 0` }),
    );
  }
  const results = await batch(db, statements);
  const ids = results.filter((_, i) => i % 2 === 1).flatMap((r) => queuedIds(r as D1Result));
  announceMail(env, ctx, ids);
  return ids.length;
}

/** The upload's part: a failure to mail the readers is logged, never the upload's failure. */
export async function mailReadersSafely(
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
  db: Db,
  input: Parameters<typeof mailReadersOfNewVersion>[3],
): Promise<number> {
  try {
    return await mailReadersOfNewVersion(env, ctx, db, input);
  } catch (error) {
    log("error", "[rooms] update mails not queued", { document: input.documentId, error });
    return 0;
  }
}
