/**
 * The investor's own pages of issue 59 under /rooms/<id>/ (the viewer, the reading reports, the
 * record, questions): the same proof the room asks (features/rooms: an open room, this browser's
 * room session, a live invitation), and the NDA accepted. Anything else answers as an unknown page.
 */
import { redirect } from "@remix-run/cloudflare";
import { invitationById, needsNda, NOT_FOUND, openRoom, type Access } from "~/features/rooms/access.server";
import { roomIdOf, roomPath } from "~/features/rooms/paths";
import { roomSession } from "~/features/rooms/session.server";
import type { Db } from "~/utils/db.server";
import { NO_STORE } from "~/utils/no-store";

export async function investorAccess(
  request: Request,
  env: Env,
  db: Db,
  roomParam: string | undefined,
  { nda = true }: { nda?: boolean } = {},
): Promise<Access> {
  const room = await openRoom(db, roomIdOf(roomParam));
  const invitationId = await roomSession(request, env, room.id);
  if (invitationId === null) throw NOT_FOUND();
  const access = await invitationById(db, room, invitationId);
  // The room's page asks for the NDA first; nothing of the room is shown before it.
  if (nda && (await needsNda(db, access))) throw redirect(roomPath(room.id), { headers: NO_STORE });
  return access;
}

export { readingPath, viewerPath, recordPath, updatesStopPath } from "./paths";
