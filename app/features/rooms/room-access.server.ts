/**
 * The room session's check on every investor request under /rooms/<id> (docs/decisions/112):
 * the room still open, this browser's session for it, and that invitation not revoked. Anything
 * else is the unknown page's answer, thrown.
 */
import type { Db } from "~/utils/db.server";
import { invitationById, NOT_FOUND, openRoom, type Access } from "./access.server";
import { roomIdOf } from "./paths";
import { roomSession } from "./session.server";

export async function roomAccess(request: Request, env: Env, db: Db, id: string | undefined): Promise<Access> {
  const room = await openRoom(db, roomIdOf(id));
  const invitationId = await roomSession(request, env, room.id);
  if (invitationId === null) throw NOT_FOUND();
  return invitationById(db, room, invitationId);
}
