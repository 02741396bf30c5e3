/**
 * Event reminders (docs/decisions/097-event-reminders.md): about 24 hours before a published,
 * scheduled event starts, one mail to each investor-alert subscriber who opted in, exactly once.
 * A reminder is an alert of kind `event-reminder` keyed by the event: the alerts' own row, fan-out
 * and mail (features/alerts), whose fan-out keeps the opted-in subscribers alone. Started by the
 * every-minute Cron Trigger; cancelling or deleting an event takes back a reminder not yet sent.
 */
import { and, eq, gt, lte, sql } from "drizzle-orm";
import { events, leads } from "~/db/schema";
import { EVENT_REMINDER_KIND, fanOutAlerts, startAlert } from "~/features/alerts/alerts.server";
import { eventIcsPath, eventPath } from "~/features/events/event-paths";
import { eventWhen } from "~/features/events/events.server";
import { getConfig } from "~/utils/config.server";
import { batch, getDb, together, type Db } from "~/utils/db.server";
import { normaliseEmail } from "~/utils/mail-address";

/** How long before its start an event's reminder goes. */
export const REMINDER_LEAD_MS = 24 * 60 * 60 * 1000;
/** Events started per run (the next minute takes the rest). */
const PER_RUN = 20;

/**
 * Starts the reminder of every event due (published, scheduled, starting within the next 24 hours)
 * that has none yet, then queues their mails. The number of reminders started.
 */
export async function remindDueEvents(env: Env, now = Date.now()): Promise<number> {
  const db = getDb(env);
  const due = await db
    .select()
    .from(events)
    .where(
      and(
        eq(events.published, true),
        eq(events.status, "scheduled"),
        gt(events.startsAt, now),
        lte(events.startsAt, now + REMINDER_LEAD_MS),
        sql`NOT EXISTS (SELECT 1 FROM alert_sends s WHERE s.kind = ${EVENT_REMINDER_KIND} AND s.item_id = CAST(${events.id} AS TEXT))`,
      ),
    )
    .limit(PER_RUN);
  if (!due.length) return 0;
  const { siteUrl } = getConfig(env);
  const results = await batch(
    db,
    due.map((e) =>
      startAlert(
        {
          kind: EVENT_REMINDER_KIND,
          id: String(e.id),
          title: `Reminder: ${e.title}`,
          summary: [
            `${eventWhen(e)}.`,
            e.location ? `Where: ${e.location}.` : "",
            e.url ? `Link: ${e.url}` : "",
            `Add it to your calendar: ${new URL(eventIcsPath(e.slug), siteUrl).href}`,
          ]
            .filter(Boolean)
            .join(" "),
          url: new URL(eventPath(e.slug), siteUrl).href,
          venture: e.venture,
        },
        now,
        // Still due when the batch runs (a cancel in between sends nothing).
        sql`EXISTS (SELECT 1 FROM ${events} WHERE ${events.id} = ${e.id} AND ${events.status} = 'scheduled' AND ${events.published} = 1)`,
      ),
    ),
  );
  const started = results.reduce((n, r) => n + r.meta.changes, 0);
  if (started) await fanOutAlerts(env);
  return started;
}

/**
 * Whether the investor-alert subscriber of this address wants event reminders (false without an
 * alerts lead). For Settings and the alert preferences page.
 */
export async function eventRemindersOf(db: Db, email: string): Promise<boolean> {
  const [[row]] = await together(db, [
    db
      .select({ on: leads.eventReminders })
      .from(leads)
      .where(and(eq(leads.email, normaliseEmail(email)), eq(leads.topic, "alerts"))),
  ]);
  return row?.on ?? false;
}

/**
 * Sets an address's consent to event reminders on its alerts lead; false when the address has no
 * alerts lead (subscribe to the alerts first).
 */
export async function setEventReminders(db: Db, email: string, on: boolean): Promise<boolean> {
  const rows = await db
    .update(leads)
    .set({ eventReminders: on })
    .where(and(eq(leads.email, normaliseEmail(email)), eq(leads.topic, "alerts")))
    .returning({ id: leads.id });
  return rows.length > 0;
}
