/**
 * An investor's consent to page times in one room (docs/decisions/116) and their other choices
 * there. The consent is asked beside the NDA's `accept` (unticked), changeable in the room; every
 * choice is also kept in `room_consents`, which the investor's own record lists.
 */
import { eq, sql } from "drizzle-orm";
import { roomConsents, roomPreferences } from "~/db/schema";
import type { Db, Statement } from "~/utils/db.server";

export { ANALYTICS_TEXT } from "./consent";

export interface RoomPreferences {
  analytics: boolean;
  updates: boolean;
}

export async function preferencesOf(db: Db, invitationId: number): Promise<RoomPreferences> {
  const [row] = await db.select().from(roomPreferences).where(eq(roomPreferences.invitationId, invitationId));
  return { analytics: row?.analyticsAt != null, updates: row?.updatesOffAt == null };
}

/**
 * The statements that record a consent choice (given or not), for the caller's batch: the choice
 * now in force and its line in the investor's record. A choice that repeats the one in force
 * changes nothing and adds no line.
 */
export function setAnalytics(db: Db, invitationId: number, analytics: boolean, now = Date.now()): Statement[] {
  const at = analytics ? now : null;
  return [
    // Raw SQL (docs/decisions/024-data-layer.md): the record's line only when the choice changes,
    // which the upsert below is about to decide; read before it in the same batch.
    sql`INSERT INTO ${roomConsents} (invitation_id, analytics, at)
      SELECT ${invitationId}, ${analytics ? 1 : 0}, ${now}
      WHERE ${analytics ? sql`NOT EXISTS` : sql`EXISTS`} (SELECT 1 FROM ${roomPreferences}
        WHERE invitation_id = ${invitationId} AND analytics_at IS NOT NULL)`,
    db
      .insert(roomPreferences)
      .values({ invitationId, analyticsAt: at, updatedAt: now })
      .onConflictDoUpdate({
        target: roomPreferences.invitationId,
        set: {
          analyticsAt: analytics ? sql`coalesce(${roomPreferences.analyticsAt}, ${now})` : null,
          updatedAt: now,
        },
      }),
  ];
}

/** Stops (or restarts) the "Updated:" mails of one room for one investor. */
export function setUpdates(db: Db, invitationId: number, updates: boolean, now = Date.now()): Statement {
  return db
    .insert(roomPreferences)
    .values({ invitationId, updatesOffAt: updates ? null : now, updatedAt: now })
    .onConflictDoUpdate({
      target: roomPreferences.invitationId,
      set: { updatesOffAt: updates ? null : sql`coalesce(${roomPreferences.updatesOffAt}, ${now})`, updatedAt: now },
    });
}
