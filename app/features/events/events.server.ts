/**
 * Events (docs/decisions/095-events.md): the admin's writes, each with its audit entry in the same
 * batch, and the public reads. The UID and the slug are fixed at creation; every change a calendar
 * must follow raises the sequence; publishing with `alert` starts the event's investor alert in
 * the same batch (features/alerts), once per event whatever happens after.
 */
import { and, asc, desc, eq, gt, lte, sql, type SQL } from "drizzle-orm";
import { alertSends, events, type CalendarEvent } from "~/db/schema";
import { auditIfChanged, auditStatement } from "~/features/admin/audit.server";
import { startAlert } from "~/features/alerts/alerts.server";
import { contentChanged } from "~/features/content/generation.server";
import type { EventInput } from "~/features/events/event-form";
import type { EventListItem } from "~/features/events/event-list";
import { eventPath, eventSlug } from "~/features/events/event-paths";
import { formatDay, formatInZone, offsetLabel } from "~/features/events/event-time";
import { freeSlug } from "~/utils/free-slug.server";
import { batch, type Db } from "~/utils/db.server";

/** The fields whose change a subscribed calendar must follow: any of them raises `sequence`. */
const CALENDAR_FIELDS = [
  "title",
  "description",
  "timezone",
  "allDay",
  "startsAt",
  "endsAt",
  "startDate",
  "endDate",
  "location",
  "url",
  "status",
] as const satisfies readonly (keyof CalendarEvent)[];

const isPublished = eq(events.published, true);

/** Published events of the group or one venture, by start (the feeds carry at most `limit`). */
export async function publishedEvents(
  db: Db,
  { venture, limit = 500 }: { venture?: string | null; limit?: number } = {},
): Promise<CalendarEvent[]> {
  return db
    .select()
    .from(events)
    .where(and(isPublished, venture ? eq(events.venture, venture) : undefined))
    .orderBy(asc(events.startsAt), asc(events.id))
    .limit(limit);
}

/** Upcoming (not yet ended) published events, soonest first, and past ones, latest first. */
export async function listedEvents(
  db: Db,
  { venture, now = Date.now(), limit = 100 }: { venture?: string | null; now?: number; limit?: number } = {},
): Promise<{ upcoming: CalendarEvent[]; past: CalendarEvent[] }> {
  const ofVenture = venture ? eq(events.venture, venture) : undefined;
  const [upcoming, past] = await batch(db, [
    db
      .select()
      .from(events)
      .where(and(isPublished, ofVenture, gt(events.endsAt, now)))
      .orderBy(asc(events.startsAt), asc(events.id))
      .limit(limit),
    db
      .select()
      .from(events)
      .where(and(isPublished, ofVenture, lte(events.endsAt, now)))
      .orderBy(desc(events.startsAt), desc(events.id))
      .limit(limit),
  ]);
  return { upcoming, past };
}

/** A published event by its slug. */
export async function publishedEventBySlug(db: Db, slug: string): Promise<CalendarEvent | null> {
  return (
    (await db
      .select()
      .from(events)
      .where(and(eq(events.slug, slug), isPublished))
      .get()) ?? null
  );
}

/** Every event for the admin list, the latest start first. */
export async function listAllEvents(db: Db, limit = 300): Promise<CalendarEvent[]> {
  return db.select().from(events).orderBy(desc(events.startsAt), desc(events.id)).limit(limit);
}

export async function eventById(db: Db, id: number): Promise<CalendarEvent | null> {
  return (await db.select().from(events).where(eq(events.id, id)).get()) ?? null;
}

/** A slug no other event has: the title's, or the title's with -2, -3… */
const freeEventSlug = (db: Db, title: string) => freeSlug(db, events, events.slug, eventSlug(title));

/** "Thursday, 12 March 2026, 16:00 (Europe/Berlin, UTC+01:00)", or the days of an all-day event. */
export function eventWhen(e: Pick<CalendarEvent, "allDay" | "startsAt" | "startDate" | "endDate" | "timezone">) {
  if (e.allDay && e.startDate && e.endDate) {
    return e.startDate === e.endDate
      ? `${formatDay(e.startDate)} (all day)`
      : `${formatDay(e.startDate)} to ${formatDay(e.endDate)} (all day)`;
  }
  return `${formatInZone(e.startsAt, e.timezone)} (${e.timezone}, ${offsetLabel(e.startsAt, e.timezone)})`;
}

/** What the public lists show of an event. */
export const listItem = (e: CalendarEvent): EventListItem => ({
  id: e.id,
  slug: e.slug,
  title: e.title,
  when: eventWhen(e),
  startsAt: e.startsAt,
  allDay: e.allDay,
  timezone: e.timezone,
  venture: e.venture,
  location: e.location,
  status: e.status,
});

/** The statement that starts an event's announcement: only while it is published with `alert`. */
const announcement = (
  e: { id: number | SQL; slug: string; title: string; venture: string | null } & Parameters<typeof eventWhen>[0],
  where: SQL,
  siteUrl: string,
  now: number,
) =>
  startAlert(
    {
      kind: "event",
      id: typeof e.id === "number" ? String(e.id) : e.id,
      title: e.title,
      summary: `${eventWhen(e)}.`,
      url: new URL(eventPath(e.slug), siteUrl).href,
      venture: e.venture,
    },
    now,
    sql`EXISTS (SELECT 1 FROM ${events} WHERE ${where} AND ${isPublished} AND ${events.alert} = 1 AND ${events.status} = 'scheduled')`,
  );

export interface SavedEvent {
  event: CalendarEvent;
  /** The event as it was (null for a new one). */
  before: CalendarEvent | null;
  /** Whether this save started the event's announcement (the caller then starts the fan-out). */
  alerted: boolean;
}

/** Creates (id null) or changes an event, with its audit entry; null when the event to change does not exist. */
export async function saveEvent(
  db: Db,
  {
    id,
    input,
    actor,
    siteUrl,
    now = Date.now(),
  }: { id: number | null; input: EventInput; actor: string; siteUrl: string; now?: number },
): Promise<SavedEvent | null> {
  const { publish, ...fields } = input;
  const values = { ...fields, published: publish, updatedAt: now };
  if (id === null) {
    const slug = await freeEventSlug(db, fields.title);
    const uid = `${crypto.randomUUID()}@${new URL(siteUrl).hostname}`;
    const bySlug = eq(events.slug, slug);
    const [inserted, , alert] = await batch(db, [
      db
        .insert(events)
        .values({ ...values, uid, slug, status: "scheduled", sequence: 0, createdAt: now })
        .returning(),
      auditStatement(db, { actor, action: publish ? "event.publish" : "event.create", target: `event ${slug}` }, now),
      announcement(
        { ...fields, slug, id: sql`(SELECT CAST(${events.id} AS TEXT) FROM ${events} WHERE ${bySlug})` },
        bySlug,
        siteUrl,
        now,
      ),
      contentChanged(db),
    ]);
    return { event: inserted[0]!, before: null, alerted: alert.meta.changes > 0 };
  }
  const before = await eventById(db, id);
  if (!before) return null;
  const byId = eq(events.id, id);
  const changed = CALENDAR_FIELDS.some((key) => key in values && values[key as keyof typeof values] !== before[key]);
  const action = publish && !before.published ? "event.publish" : "event.update";
  const [updated, , alert] = await batch(db, [
    db
      .update(events)
      .set({ ...values, sequence: changed ? sql`${events.sequence} + 1` : events.sequence })
      .where(byId)
      .returning(),
    auditIfChanged(db, { actor, action, target: `event #${id}` }, now),
    announcement({ ...fields, slug: before.slug, id }, byId, siteUrl, now),
    contentChanged(db),
  ]);
  const event = updated[0];
  return event ? { event, before, alerted: alert.meta.changes > 0 } : null;
}

/**
 * The reminder of an event not yet sent (docs/decisions/097): cancelling or deleting it takes it
 * back, so a cancelled event's reminder never goes.
 */
const withdrawReminder = (db: Db, id: number) =>
  db
    .delete(alertSends)
    .where(
      and(
        eq(alertSends.kind, "event-reminder"),
        eq(alertSends.itemId, String(id)),
        sql`${alertSends.fannedOutAt} IS NULL`,
      ),
    );

/** Marks an event cancelled (it stays, in the feeds too, with a higher sequence); null when there is none. */
export async function cancelEvent(db: Db, id: number, actor: string, now = Date.now()): Promise<CalendarEvent | null> {
  const [rows] = await batch(db, [
    db
      .update(events)
      .set({ status: "cancelled", sequence: sql`${events.sequence} + 1`, updatedAt: now })
      .where(and(eq(events.id, id), eq(events.status, "scheduled")))
      .returning(),
    auditIfChanged(db, { actor, action: "event.cancel", target: `event #${id}` }, now),
    withdrawReminder(db, id),
    contentChanged(db),
  ]);
  return rows[0] ?? (await eventById(db, id));
}

/** Deletes an event: it leaves the pages and the feeds. */
export async function deleteEvent(db: Db, id: number, actor: string, now = Date.now()): Promise<CalendarEvent | null> {
  const [rows] = await batch(db, [
    db.delete(events).where(eq(events.id, id)).returning(),
    auditIfChanged(db, { actor, action: "event.delete", target: `event #${id}` }, now),
    withdrawReminder(db, id),
    contentChanged(db),
  ]);
  return rows[0] ?? null;
}
