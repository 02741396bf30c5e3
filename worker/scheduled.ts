// The jobs of the Cron Trigger (wrangler.toml [triggers], every minute): each runs alone, so one
// that fails does not stop the others, and each logs its own failure.
import { deliverDueMail, pruneMail, SAFETY_NET_AFTER_MS } from "../app/features/mail/outbox.server";
import { sweepExpired } from "../app/features/leads/subscription.server";
import { sweepOrphans } from "../app/features/documents/sweep.server";
import { fanOutAlerts } from "../app/features/alerts/alerts.server";
import { remindDueEvents } from "../app/features/events/reminders.server";
import { sweepReadingRecords } from "../app/features/engagement/readings.server";
import { getConfig } from "../app/utils/config.server";
import { log } from "../app/utils/log.server";
import { getDb } from "~/utils/db.server";

/**
 * `mail: false` leaves the outbox as it is (production with a bad mail setting: worker/server.ts).
 * `now` is for tests that move time forward; the Cron Trigger passes none (not its
 * `scheduledTime`, which is already past when the run starts and gets older through its 45 s of
 * sending), so mail delivery reads the real clock at every claim.
 */
export async function runScheduledJobs(env: Env, now?: number, { mail: send = true } = {}) {
  const at = now ?? Date.now();
  const [mail, prunedMail, newsletter, orphanDocuments, alerts, eventReminders, readingRecords] = await Promise.all([
    // The safety net: what the mail queue has not sent a while after it was due.
    send ? job("mail delivery", () => deliverDueMail(env, now, { olderThanMs: SAFETY_NET_AFTER_MS })) : null,
    job("mail pruning", () => pruneMail(getDb(env), at)),
    job("newsletter expiry", () => sweepExpired(getDb(env), at)),
    job("document orphan sweep", () => sweepOrphans(env, at)),
    // What a publish's own fan-out left (cut off, or failed): queued now, sent by the safety net.
    send ? job("alert fan-out", () => fanOutAlerts(env)) : null,
    // The day-before reminders of events now due, each once (docs/decisions/097).
    send ? job("event reminders", () => remindDueEvents(env, at)) : null,
    // Investors' reading records past READING_RECORD_MONTHS (docs/decisions/117).
    job("reading record sweep", () => sweepReadingRecords(getDb(env), getConfig(env).readingRecordMonths, at)),
  ]);
  return { mail, prunedMail, newsletter, orphanDocuments, alerts, eventReminders, readingRecords };
}

async function job<T>(name: string, run: () => Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch (error) {
    log("error", `[scheduled] ${name} failed`, { error });
    return null;
  }
}
