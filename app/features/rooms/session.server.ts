/**
 * The room session (docs/decisions/112): a signed cookie of its own, HttpOnly, SameSite=Lax and
 * Path=/rooms/, apart from a member's sign-in (the one cookie rule: utils/cookies.server.ts). It
 * holds, per room, the invitation whose code was entered and when. It proves only that; every
 * request checks the room and the invitation again, so closing, expiry and "Revoke" end it at once.
 */
import { COOKIES, signedCookie } from "~/utils/cookies.server";
import { ROOMS_PATH } from "./paths";

/** How long a room session lasts after the code: a working day, then a new code. */
export const ROOM_SESSION_SECONDS = 12 * 60 * 60;
/** At most this many rooms in one browser's cookie (the oldest go first). */
const MAX_ROOMS = 10;

type Sessions = Record<string, { i: number; at: number }>;

const cookieOf = (request: Request, env: Env) =>
  signedCookie(request, env, COOKIES.room, ROOM_SESSION_SECONDS, ROOMS_PATH);

async function sessionsOf(request: Request, env: Env): Promise<Sessions> {
  const value: unknown = await cookieOf(request, env).parse(request.headers.get("Cookie"));
  return value && typeof value === "object" ? (value as Sessions) : {};
}

/** The invitation this browser entered `roomId` with, unless its session has run out. */
export async function roomSession(
  request: Request,
  env: Env,
  roomId: string,
  now = Date.now(),
): Promise<number | null> {
  const entry = (await sessionsOf(request, env))[roomId];
  if (!entry || typeof entry.i !== "number" || typeof entry.at !== "number") return null;
  return now - entry.at < ROOM_SESSION_SECONDS * 1000 ? entry.i : null;
}

/** The Set-Cookie that adds (or renews) this room's session. */
export async function startRoomSession(
  request: Request,
  env: Env,
  roomId: string,
  invitationId: number,
  now = Date.now(),
): Promise<string> {
  const sessions = await sessionsOf(request, env);
  sessions[roomId] = { i: invitationId, at: now };
  const kept = Object.entries(sessions)
    .filter(([, s]) => now - s.at < ROOM_SESSION_SECONDS * 1000)
    .sort(([, a], [, b]) => b.at - a.at)
    .slice(0, MAX_ROOMS);
  return cookieOf(request, env).serialize(Object.fromEntries(kept));
}
