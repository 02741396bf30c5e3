/**
 * The investor's way into a room (docs/rooms.md, docs/decisions/112): the personal link, a
 * one-time code mailed to the invited address, the NDA, then the room, kept open by the room
 * session cookie. Every refusal (an unknown, expired or closed room, a revoked invitation, a
 * session that is not this room's) answers as an unknown page does: a thrown 404 the root renders
 * as the not-found page, so nothing tells a stranger that a room exists.
 */
import { NO_STORE } from "~/utils/no-store";
import { and, desc, eq, gt, gte, isNull, lt, sql } from "drizzle-orm";
import {
  investors,
  roomCodes,
  roomInvitations,
  roomNdaAcceptances,
  roomVisits,
  type Investor,
  type Room,
  type RoomInvitation,
} from "~/db/schema";
import { announceMail, queuedIds, queueMail } from "~/features/mail/outbox.server";
import { ventureById } from "~/features/ventures/catalogue.server";
import { SITE } from "~/content/site";
import { getConfig } from "~/utils/config.server";
import { hmacSign, sha256Hex } from "~/utils/crypto.server";
import { batch, type Db } from "~/utils/db.server";
import { invitationHandle } from "./invitation-link.server";
import { codeMail, visitMail } from "./mails.server";
import { roomAdminPath } from "./paths";
import { isOpen, roomById } from "./rooms.server";

const MINUTE = 60_000;
/** A code's life, the gap before another may be sent, and the wrong tries that void it. */
export const CODE_TTL_MS = 10 * MINUTE;
export const CODE_RESEND_MS = 30_000;
export const CODE_MAX_ATTEMPTS = 5;
/** Requests within this long of the last are one visit: one owner e-mail each. */
export const VISIT_GAP_MS = 30 * MINUTE;

export const NOT_FOUND = () => new Response("Not Found", { status: 404, headers: NO_STORE });

/** The room if it still answers its investors; else the unknown page's answer is thrown. */
export async function openRoom(db: Db, id: string | null, now = Date.now()): Promise<Room> {
  const room = id ? await roomById(db, id) : undefined;
  if (!room || !isOpen(room, now)) throw NOT_FOUND();
  return room;
}

export interface Access {
  room: Room;
  invitation: RoomInvitation;
  investor: Investor;
}

/** The live invitation of `room` whose personal link holds `token`, with its investor; else 404. */
export async function invitationByToken(env: Env, db: Db, room: Room, token: string | undefined): Promise<Access> {
  const handle = token ? await invitationHandle(env, token) : null;
  const row = handle
    ? await db
        .select({ invitation: roomInvitations, investor: investors })
        .from(roomInvitations)
        .innerJoin(investors, eq(investors.id, roomInvitations.investorId))
        .where(
          and(
            eq(roomInvitations.tokenHash, await sha256Hex(handle)),
            eq(roomInvitations.roomId, room.id),
            isNull(roomInvitations.revokedAt),
          ),
        )
        .get()
    : undefined;
  if (!row) throw NOT_FOUND();
  return { room, ...row };
}

/** The live invitation by its id (the room session's), with its investor; else 404. */
export async function invitationById(db: Db, room: Room, invitationId: number): Promise<Access> {
  const row = await db
    .select({ invitation: roomInvitations, investor: investors })
    .from(roomInvitations)
    .innerJoin(investors, eq(investors.id, roomInvitations.investorId))
    .where(
      and(eq(roomInvitations.id, invitationId), eq(roomInvitations.roomId, room.id), isNull(roomInvitations.revokedAt)),
    )
    .get();
  if (!row) throw NOT_FOUND();
  return { room, ...row };
}

/** A code's stored form: its HMAC under the session secret, bound to the invitation and the send. */
const codeHash = (secret: string, invitationId: number, sentAt: number, code: string) =>
  hmacSign(secret, `room-code:${invitationId}:${sentAt}:${code}`);

/** Six random digits, uniform (rejection sampling over 32-bit values). */
export function newCode(): string {
  const limit = 4_294_000_000; // a multiple of 10^6 below 2^32
  for (;;) {
    const [n] = crypto.getRandomValues(new Uint32Array(1));
    if (n! < limit) return String(n! % 1_000_000).padStart(6, "0");
  }
}

/**
 * The address form's work: when `typed` is this invitation's address and no code went out in the
 * last 30 s, a new code is stored and mailed (earlier codes stop working). Whatever happens the
 * visitor is told the same thing, so the form never says who is invited.
 */
export async function requestCode(
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
  db: Db,
  access: Access,
  typed: string,
  now = Date.now(),
): Promise<"sent" | "not-sent"> {
  if (typed !== access.investor.email) return "not-sent";
  const code = newCode();
  const invitationId = access.invitation.id;
  const hash = await codeHash(getConfig(env).sessionSecrets[0]!, invitationId, now, code);
  // Raw SQL (docs/decisions/024-data-layer.md): the 30 s gap is the INSERT's own condition, so two
  // requests at once send one code.
  const recent = sql`NOT EXISTS (SELECT 1 FROM ${roomCodes} WHERE ${roomCodes.invitationId} = ${invitationId} AND ${roomCodes.sentAt} > ${now - CODE_RESEND_MS})`;
  const [, inserted, queued] = await batch(db, [
    // Earlier codes are void once a new one is sent.
    db
      .update(roomCodes)
      .set({ usedAt: now })
      .where(
        and(
          eq(roomCodes.invitationId, invitationId),
          isNull(roomCodes.usedAt),
          lt(roomCodes.sentAt, now - CODE_RESEND_MS),
        ),
      ),
    sql`INSERT INTO ${roomCodes} (invitation_id, code_hash, sent_at, expires_at) SELECT ${invitationId}, ${hash}, ${now}, ${now + CODE_TTL_MS} WHERE ${recent}`,
    queueMail(db, codeMail({ to: access.investor.email, code }), now, { onlyIf: sql`changes() > 0` }),
  ]);
  const ids = queuedIds(queued);
  announceMail(env, ctx, ids);
  return inserted.meta.changes > 0 ? "sent" : "not-sent";
}

export type CodeCheck = "ok" | "wrong" | "void";

/**
 * Checks a typed code against the invitation's newest live one: right, it is used up (single
 * use); wrong, the try is counted, and the fifth wrong try voids it ("void": ask for a new one).
 * Only this invitation's code is touched: nothing one visitor types locks out another.
 */
export async function checkCode(env: Env, db: Db, access: Access, code: string, now = Date.now()): Promise<CodeCheck> {
  const live = await db
    .select()
    .from(roomCodes)
    .where(
      and(eq(roomCodes.invitationId, access.invitation.id), isNull(roomCodes.usedAt), gt(roomCodes.expiresAt, now)),
    )
    .orderBy(desc(roomCodes.sentAt))
    .get();
  if (!live || live.attempts >= CODE_MAX_ATTEMPTS) return "void";
  let right = false;
  for (const secret of getConfig(env).sessionSecrets) {
    if ((await codeHash(secret, live.invitationId, live.sentAt, code)) === live.codeHash) right = true;
  }
  if (right) {
    const used = await db
      .update(roomCodes)
      .set({ usedAt: now })
      .where(and(eq(roomCodes.id, live.id), isNull(roomCodes.usedAt), lt(roomCodes.attempts, CODE_MAX_ATTEMPTS)))
      .returning({ id: roomCodes.id });
    return used.length ? "ok" : "void";
  }
  const [counted] = await db
    .update(roomCodes)
    .set({ attempts: sql`${roomCodes.attempts} + 1` })
    .where(and(eq(roomCodes.id, live.id), isNull(roomCodes.usedAt)))
    .returning({ attempts: roomCodes.attempts });
  return (counted?.attempts ?? CODE_MAX_ATTEMPTS) >= CODE_MAX_ATTEMPTS ? "void" : "wrong";
}

/** Whether the investor must still accept the room's NDA: it has one, and not this text accepted. */
export async function needsNda(db: Db, access: Access): Promise<boolean> {
  if (!access.room.nda.trim()) return false;
  const accepted = await db
    .select({ id: roomNdaAcceptances.id })
    .from(roomNdaAcceptances)
    .where(
      and(eq(roomNdaAcceptances.invitationId, access.invitation.id), eq(roomNdaAcceptances.ndaText, access.room.nda)),
    )
    .get();
  return !accepted;
}

/** Records the NDA's acceptance: when, the name typed, and the text as accepted. */
export async function acceptNda(db: Db, access: Access, name: string, now = Date.now()): Promise<void> {
  await db
    .insert(roomNdaAcceptances)
    .values({ invitationId: access.invitation.id, name, ndaText: access.room.nda, acceptedAt: now });
}

/** The room's owner: a venture's name, or the group's. */
export async function ownerName(db: Db, room: Pick<Room, "venture">): Promise<string> {
  if (!room.venture) return SITE.name;
  return (await ventureById(db, room.venture))?.name ?? room.venture;
}

/**
 * Notes the investor's presence: the invitation's first open and last seen, and the visit it
 * belongs to (requests within 30 minutes of the last are one). When `opened` (the room's page,
 * not a file) starts a new visit, the owner is mailed once, unless the room's switch is off or
 * the investor is one of the group's own admins. The visit's INSERT carries the 30-minute
 * condition itself, so two requests at once start one visit and send one e-mail.
 */
export async function recordPresence(
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
  db: Db,
  access: Access,
  { opened }: { opened: boolean },
  now = Date.now(),
): Promise<void> {
  const { room, invitation, investor } = access;
  const since = now - VISIT_GAP_MS;
  const current = sql`EXISTS (SELECT 1 FROM ${roomVisits} WHERE ${roomVisits.invitationId} = ${invitation.id} AND ${roomVisits.lastSeenAt} >= ${since})`;
  const config = getConfig(env);
  const tell = opened && room.notifyOwner && !config.adminEmails.includes(investor.email);
  const mail = tell
    ? visitMail({
        to: room.ownerEmail,
        investor,
        roomTitle: room.title,
        venture: await ownerName(db, room),
        adminUrl: new URL(roomAdminPath(room.id), config.siteUrl).href,
      })
    : null;
  const statements = [
    db
      .update(roomInvitations)
      .set({
        lastSeenAt: now,
        ...(opened ? { firstOpenedAt: sql`coalesce(${roomInvitations.firstOpenedAt}, ${now})` } : {}),
      })
      .where(eq(roomInvitations.id, invitation.id)),
    db
      .update(roomVisits)
      .set({ lastSeenAt: now })
      .where(and(eq(roomVisits.invitationId, invitation.id), gte(roomVisits.lastSeenAt, since))),
    // Raw SQL (docs/decisions/024-data-layer.md): INSERT … SELECT under the 30-minute condition.
    sql`INSERT INTO ${roomVisits} (invitation_id, started_at, last_seen_at, notified) SELECT ${invitation.id}, ${now}, ${now}, ${mail ? 1 : 0} WHERE NOT ${current}`,
    ...(mail ? [queueMail(db, mail, now, { onlyIf: sql`changes() > 0` })] : []),
  ] as const;
  const results = await batch(db, [...statements]);
  if (mail) announceMail(env, ctx, queuedIds(results[3] as D1Result));
}
