/**
 * Investor alerts (docs/decisions/075-investor-alerts.md): one mail per published item (news, or
 * a document) to every confirmed subscriber of the `alerts` topic, exactly once per subscriber and
 * item. Publishing writes the alert (its key is the item's, so a second publish writes nothing);
 * the fan-out then queues the mails in batches, each mail in the batch that records its recipient.
 */
import { and, asc, count, eq, gt, inArray, isNull, like, notExists, sql, type SQL } from "drizzle-orm";
import { alertRecipients, alertSends, leads, mailOutbox } from "~/db/schema";
import { alertMail } from "~/features/alerts/alert-mail.server";
import type { AlertKind } from "~/features/alerts/preferences";
import { preferencesUrl } from "~/features/alerts/preferences.server";
import { unsubscribePath, unsubscribeToken } from "~/features/leads/subscription.server";
import { messageProblem } from "~/features/mail/message";
import { announceMail, queuedIds } from "~/features/mail/outbox.server";
import { getConfig } from "~/utils/config.server";
import { log } from "~/utils/log.server";
import { batch, columnName, getDb, together, type Db, type Statement } from "~/utils/db.server";

/** What an alert is about: the item and what its mail says. */
export interface AlertItem {
  /** "news", "document", "event" (an announcement) or "event-reminder" (docs/decisions/097). */
  kind: "news" | "document" | "event" | typeof EVENT_REMINDER_KIND;
  /** The item's id (SQL when the same batch inserts the item). */
  id: string | SQL;
  title: string;
  summary: string;
  /** The item's public address. */
  url: string;
  /** The venture the item belongs to (a catalogue id), null for the group's own. */
  venture: string | null;
}

/**
 * The kind of an event's reminder the day before (docs/decisions/097): its mails go only to the
 * subscribers who opted in to event reminders.
 */
export const EVENT_REMINDER_KIND = "event-reminder";

const COLUMNS = sql.join(
  [
    alertSends.kind,
    alertSends.itemId,
    alertSends.title,
    alertSends.summary,
    alertSends.url,
    alertSends.venture,
    alertSends.createdAt,
  ].map(columnName),
  sql`, `,
);

/**
 * The statement that starts an item's alert, for the publishing batch: nothing when the item had
 * one already (published twice, or unpublished and published again), or when `onlyIf` fails.
 * Raw SQL (docs/decisions/024-data-layer.md): INSERT … SELECT under a condition, DO NOTHING on the key.
 */
export function startAlert(item: AlertItem, now: number, onlyIf: SQL = sql`1`): Statement {
  return sql`INSERT INTO ${alertSends} (${COLUMNS})
      SELECT ${item.kind}, ${item.id}, ${item.title}, ${item.summary}, ${item.url}, ${item.venture}, ${now} WHERE ${onlyIf}
      ON CONFLICT DO NOTHING`;
}

/** How many subscribers one fan-out batch queues (one JSON parameter, two statements). */
const CHUNK = 50;

/** The outbox kind of an alert's mails: the dashboard groups by it and "sent N of M" counts it. */
export const alertMailKind = (kind: string, itemId: string) =>
  `alert-${kind}-${itemId.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`.slice(0, 64);

type Send = typeof alertSends.$inferSelect;

/**
 * The preference kind an alert's item is (docs/decisions/099); null for an event's reminder, which
 * its own opt-in decides (097): only the venture choice applies to it.
 */
const PREFERENCE_KIND: Record<AlertItem["kind"], AlertKind | null> = {
  news: "news",
  document: "documents",
  event: "events",
  [EVENT_REMINDER_KIND]: null,
};

/**
 * Whether an alerts lead chose this alert (docs/decisions/099): its kind among the lead's kinds
 * (none chosen: all), and its venture among the lead's ventures (none chosen: every venture and
 * the group's own items, which only they get). Raw SQL (docs/decisions/024-data-layer.md): the
 * choice is a JSON array, read with json_each.
 */
const chose = (send: Pick<Send, "kind" | "venture">) => {
  const kind = PREFERENCE_KIND[send.kind as AlertItem["kind"]] ?? null;
  const ofKind = kind
    ? sql`(${leads.alertKinds} IS NULL OR EXISTS (SELECT 1 FROM json_each(${leads.alertKinds}) WHERE value = ${kind}))`
    : sql`1`;
  return sql`${ofKind}
    AND (${leads.alertVentures} IS NULL OR EXISTS (SELECT 1 FROM json_each(${leads.alertVentures}) WHERE value = ${send.venture}))`;
};

/**
 * Chunks one invocation queues before it hands the rest of its alerts on (1,000 subscribers): an
 * invocation's CPU is then the same for any audience (docs/decisions/126: 10,000 subscribers took
 * up to 4 s of the 5 s limit in one invocation).
 */
export const CHUNKS_PER_RUN = 20;

/** A mail-queue message: go on with an alert's fan-out after lead `after`. */
export interface FanOutJob {
  fanOut: { kind: string; itemId: string; after: number };
}

export const isFanOutJob = (body: unknown): body is FanOutJob =>
  typeof (body as Partial<FanOutJob> | null)?.fanOut?.itemId === "string";

/**
 * Queues the mails of every alert not yet fanned out: for each, the confirmed `alerts` leads
 * (never a suppressed record) that have no mail of it yet, CHUNK at a time, CHUNKS_PER_RUN chunks
 * in all; what is left of an alert is handed on through the mail queue (`continueFanOut`, in the
 * consumer's own invocation, and so on to its end). Each chunk is one batch: the mails, only for
 * leads the alert has no recipient row for, then those rows, so a lead gets one mail per alert
 * however often (or concurrently) this runs. Called after a publish (`waitUntil`) and by the
 * every-minute Cron Trigger (no `ctx`: it hands nothing on, the next minute's run goes on), which
 * finishes what a cut-off run or a lost message left.
 * Raw SQL (docs/decisions/024-data-layer.md): INSERT … SELECT over json_each of the chunk, one
 * statement for any chunk size (D1 binds at most 100 parameters a statement).
 */
export async function fanOutAlerts(
  env: Env,
  ctx?: Pick<ExecutionContext, "waitUntil">,
  now = Date.now,
): Promise<number> {
  const db = getDb(env);
  const sends = await db
    .select()
    .from(alertSends)
    .where(isNull(alertSends.fannedOutAt))
    .orderBy(asc(alertSends.createdAt))
    .limit(10);
  let queued = 0;
  let chunks = CHUNKS_PER_RUN;
  for (const send of sends) {
    // One alert that fails (its item, a database error) stops none of the others.
    try {
      const run = await fanOutOne(env, ctx, send, now, { after: 0, chunks });
      queued += run.queued;
      chunks -= run.chunks;
      if (run.next !== null && ctx) await handOn(env, send, run.next);
    } catch (error) {
      log("error", "alert fan-out failed for one alert", { kind: send.kind, item: send.itemId, error });
    }
  }
  return queued;
}

/**
 * The mail queue's fan-out message: the alert's next CHUNKS_PER_RUN chunks after `after`, and the
 * rest handed on again. An alert already fanned out (the Cron Trigger finished it) is left.
 */
export async function continueFanOut(
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
  { kind, itemId, after }: FanOutJob["fanOut"],
  now = Date.now,
): Promise<number> {
  const send = await getDb(env)
    .select()
    .from(alertSends)
    .where(and(eq(alertSends.kind, kind), eq(alertSends.itemId, itemId), isNull(alertSends.fannedOutAt)))
    .get();
  if (!send) return 0;
  const run = await fanOutOne(env, ctx, send, now, { after, chunks: CHUNKS_PER_RUN });
  if (run.next !== null) await handOn(env, send, run.next);
  return run.queued;
}

/** The rest of an alert, after lead `after`, on the mail queue (none bound: the Cron Trigger goes on). */
async function handOn(env: Env, send: Send, after: number): Promise<void> {
  const queue = env.MAIL_QUEUE as Queue<FanOutJob> | undefined;
  await queue?.send({ fanOut: { kind: send.kind, itemId: send.itemId, after } }, { contentType: "json" });
}

/**
 * The next CHUNK leads after lead `after` that are due this alert's mail. The topic and status are
 * written `+column` so that SQLite walks the primary key from `after` (a chunk reads its own rows
 * and the other leads between them: one pass over the table for the whole fan-out) rather than
 * the audience index, whose order is not the ids': every chunk would read and sort every alerts
 * subscriber, quadratic in them (200 chunks × 10 000 rows at 10 000 subscribers, bench/at-size.mjs).
 * tests/server/audience-plans.test.ts pins the plan.
 */
export function dueRecipients(db: Db, send: Pick<Send, "kind" | "itemId" | "venture">, after: number) {
  const r = alertRecipients;
  return db
    .select({ id: leads.id, email: leads.email })
    .from(leads)
    .where(
      and(
        eq(sql`+${leads.topic}`, "alerts"),
        eq(sql`+${leads.status}`, "confirmed"),
        gt(leads.id, after),
        isNull(leads.suppressedAt),
        chose(send),
        send.kind === EVENT_REMINDER_KIND ? eq(leads.eventReminders, true) : undefined,
        notExists(
          db
            .select({ one: sql`1` })
            .from(r)
            .where(and(eq(r.kind, send.kind), eq(r.itemId, send.itemId), eq(r.leadId, leads.id))),
        ),
      ),
    )
    .orderBy(asc(leads.id))
    .limit(CHUNK);
}

/**
 * Up to `chunks` chunks of one alert's fan-out after lead `after`: what it queued, the chunks it
 * took, and the lead to go on after (null: the alert is fanned out, and marked so).
 */
async function fanOutOne(
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil"> | undefined,
  send: Send,
  now: () => number,
  { after, chunks }: { after: number; chunks: number },
): Promise<{ queued: number; chunks: number; next: number | null }> {
  const db = getDb(env);
  const r = alertRecipients;
  const kind = alertMailKind(send.kind, send.itemId);
  const { siteUrl } = getConfig(env);
  let queued = 0;
  // Leads are taken in id order after the last one seen, so a lead skipped below is not met again.
  for (let used = 0; ; used++) {
    if (used === chunks) return { queued, chunks: used, next: after };
    const due = await dueRecipients(db, send, after);
    if (!due.length) {
      await db
        .update(alertSends)
        .set({ fannedOutAt: now() })
        .where(and(eq(alertSends.kind, send.kind), eq(alertSends.itemId, send.itemId)));
      return { queued, chunks: used, next: null };
    }
    after = due.at(-1)?.id ?? after;
    const built = await Promise.all(
      due.map(async (lead) => {
        // A recipient whose mail cannot be built (an address the mail path refuses) is skipped
        // and logged: never the chunk, never the alert.
        try {
          return await recipientMail(env, siteUrl, kind, send, lead);
        } catch (error) {
          log("warn", "alert mail skipped for one recipient", { lead: lead.id, kind, error });
          return null;
        }
      }),
    );
    const mails = built.filter((mail) => mail !== null);
    if (!mails.length) continue;
    const at = now();
    const field = (name: string) => sql`json_extract(j.value, ${`$.${name}`})`;
    const [inserted] = await batch(db, [
      sql`INSERT INTO ${mailOutbox} (${MAIL_COLUMNS})
          SELECT ${kind}, ${field("to")}, ${field("subject")}, ${field("text")}, ${field("html")}, ${field("headers")}, 'queued', 0, ${at}, ${at}
          FROM json_each(${JSON.stringify(mails)}) AS j
          WHERE NOT EXISTS (SELECT 1 FROM ${r} WHERE ${r.kind} = ${send.kind} AND ${r.itemId} = ${send.itemId} AND ${r.leadId} = ${field("lead")})
          RETURNING ${columnName(mailOutbox.id)}`,
      sql`INSERT INTO ${r} (${RECIPIENT_COLUMNS})
          SELECT ${send.kind}, ${send.itemId}, ${field("lead")} FROM json_each(${JSON.stringify(mails)}) AS j WHERE 1
          ON CONFLICT DO NOTHING`,
    ]);
    const ids = queuedIds(inserted);
    queued += ids.length;
    if (ctx) announceMail(env, ctx, ids);
  }
}

/** One lead's alert mail, as the fan-out's JSON row; throws when it cannot go out as is. */
async function recipientMail(env: Env, siteUrl: string, kind: string, send: Send, lead: { id: number; email: string }) {
  const unsubscribeUrl = new URL(unsubscribePath(await unsubscribeToken(env, lead.id)), siteUrl).href;
  const message = alertMail({
    preferencesUrl: await preferencesUrl(env, siteUrl, lead.id),
    kind,
    to: lead.email,
    title: send.title,
    summary: send.summary,
    url: send.url,
    unsubscribeUrl,
  });
  const problem = messageProblem(message);
  if (problem) throw new Error(`alert mail: ${problem}`);
  return {
    lead: lead.id,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    headers: JSON.stringify(message.headers),
  };
}

const MAIL_COLUMNS = sql.join(
  [
    mailOutbox.kind,
    mailOutbox.recipient,
    mailOutbox.subject,
    mailOutbox.textBody,
    mailOutbox.htmlBody,
    mailOutbox.headers,
    mailOutbox.status,
    mailOutbox.attempts,
    mailOutbox.nextAttemptAt,
    mailOutbox.createdAt,
  ].map(columnName),
  sql`, `,
);
const RECIPIENT_COLUMNS = sql.join(
  [alertRecipients.kind, alertRecipients.itemId, alertRecipients.leadId].map(columnName),
  sql`, `,
);

export interface AlertProgress {
  /** Mails sent (as long as the outbox keeps their records: 30 days). */
  sent: number;
  /**
   * This item's recipients: the mails queued for it that are still in the outbox (queued, sent or
   * failed). A mail the sender dropped (its reader unsubscribed or was suppressed before it went)
   * is no recipient; once the outbox has forgotten every mail, the subscribers it was queued for.
   */
  total: number;
  /** Still queuing: more subscribers may be added to `total`. */
  preparing: boolean;
}

/** "Sent N of M" for each of these items' alerts (items without one are absent). */
export async function alertProgress(
  db: Db,
  kind: AlertItem["kind"],
  ids: string[],
): Promise<Map<string, AlertProgress>> {
  if (!ids.length) return new Map();
  // Both reads in one round trip (decision 125): the mails are asked for every item's kind, since
  // a kind is the item's id spelled so, and only those of items with a send are looked up.
  const [rows, mails] = await together(db, [
    db
      .select({
        itemId: alertSends.itemId,
        fannedOutAt: alertSends.fannedOutAt,
        recipients: sql<number>`(SELECT COUNT(*) FROM ${alertRecipients} WHERE ${alertRecipients.kind} = ${alertSends.kind} AND ${alertRecipients.itemId} = ${alertSends.itemId})`,
      })
      .from(alertSends)
      .where(and(eq(alertSends.kind, kind), inArray(alertSends.itemId, ids))),
    db
      .select({
        kind: mailOutbox.kind,
        n: count(),
        sent: sql<number>`SUM(${mailOutbox.status} = 'sent')`,
      })
      .from(mailOutbox)
      .where(inArray(mailOutbox.kind, [...new Set(ids.map((id) => alertMailKind(kind, id)))]))
      .groupBy(mailOutbox.kind),
  ]);
  const mailsBy = new Map(mails.map((m) => [m.kind, m]));
  return new Map(
    rows.map((row) => {
      const m = mailsBy.get(alertMailKind(kind, row.itemId));
      return [row.itemId, { sent: m?.sent ?? 0, total: m ? m.n : row.recipients, preparing: row.fannedOutAt === null }];
    }),
  );
}

export interface AlertBacklog {
  /** Alert mails queued and not yet sent. */
  waiting: number;
  /** Alerts whose mails are still being queued. */
  preparing: number;
}

/** The dashboard's view of the alerts still going out (a few rows: the outbox's status index). */
export async function alertBacklog(db: Db): Promise<AlertBacklog> {
  const [waiting, preparing] = await together(db, [
    db
      .select({ n: count() })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.status, "queued"), like(mailOutbox.kind, "alert-%"))),
    db.select({ n: count() }).from(alertSends).where(isNull(alertSends.fannedOutAt)),
  ]);
  return { waiting: waiting[0]?.n ?? 0, preparing: preparing[0]?.n ?? 0 };
}

/**
 * An item published with its alert asked for, from outside this module (the documents library's
 * publish): starts the item's alert, once, and its fan-out after the response. True when this call
 * started it (false: the item had its alert already).
 */
export async function publishAlert(
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
  item: AlertItem & { id: string },
  now = Date.now(),
): Promise<boolean> {
  const [started] = await batch(getDb(env), [startAlert(item, now)]);
  if (started.meta.changes === 0) return false;
  ctx.waitUntil(fanOutAlerts(env, ctx));
  return true;
}
