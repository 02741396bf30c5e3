// The mail outbox (migrations/0004, docs/decisions/015-mail-delivery.md): the app stores an e-mail
// in the same D1 batch as the write it belongs to; then the request announces it on the mail queue
// (Cloudflare Queues, `announceMail`), whose consumer sends it within seconds with retries, and
// the every-minute Cron Trigger (`deliverDueMail`) sends whatever the queue did not, so a slow or
// failing SMTP server never fails or slows a visitor's request and nothing is lost.
import { log } from "~/utils/log.server";
import { smtpConfig, type SmtpConfig } from "./config.server";
import { maskAddress, maskAddresses, messageProblem, type MailMessage } from "./message";
import { SEND_TIMEOUT_MS, sendMail } from "./smtp.server";

const MINUTE = 60_000;
/**
 * A message being sent is not taken again for this long: one message's delivery (SEND_TIMEOUT_MS
 * and the QUIT) with room to spare. Each message is claimed alone, right before it is sent, so a
 * run that is cut off holds at most its few messages in flight, for at most this long.
 */
export const LEASE_MS = 2 * SEND_TIMEOUT_MS;
/** After this long in the outbox, a message that still fails is given up (status "failed"). */
export const GIVE_UP_AFTER_MS = 24 * 60 * MINUTE;
/**
 * Messages sent at once by one run or consumer invocation (a whole queue batch, max_batch_size),
 * each over its own connection. A deployed invocation holds six connections open at a time and
 * the runtime makes the others wait for a slot, so this bounds the waiting, not the sockets: a
 * send that waits past SEND_TIMEOUT_MS is retried like any failure. Measured locally (bench
 * mail-burst): 5 lanes sent 26 mails/s, 20 sent 44 (miniflare runs one batch at a time; the
 * platform runs several invocations at once).
 */
export const CONCURRENCY = 20;
/**
 * The Cron Trigger sends what the queue has not sent this long after it was due: it is the safety
 * net (a lost announcement, the dead-letter queue), not a second sender racing the consumer.
 */
export const SAFETY_NET_AFTER_MS = 2 * MINUTE;
/** How long one Cron Trigger run keeps sending (it starts every minute). */
const CRON_BUDGET_MS = 45_000;

/** 30 s, 1, 2, 4, … minutes after the n-th failed attempt, at most an hour apart. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 60 * MINUTE);
}

/** The body of a mail queue message: which outbox row to send (the row holds everything else). */
export interface MailJob {
  id: number;
}

/**
 * Where a message's bodies name the Help message they are about (a link to it in the inbox): the
 * queue statement writes that message's id there (`aboutPreviousContactMessage`).
 */
export const CONTACT_MESSAGE_ID_SLOT = "{contact-message-id}";

export interface QueueOptions {
  /** A condition on the batch's earlier writes (SQL with `?` placeholders): queued only if it holds. */
  onlyIf?: { sql: string; params: unknown[] };
  /**
   * The e-mail is about the Help message the batch inserted just before it (its notification): the
   * row keeps that message's id, so erasing or exporting the sender finds it, and the bodies get
   * the id at their last CONTACT_MESSAGE_ID_SLOT (the link, which follows the visitor's own text:
   * a visitor who types the slot changes nothing).
   */
  aboutPreviousContactMessage?: boolean;
}

/** A body as SQL: itself, or its two halves around the id of the Help message inserted before. */
function bodySql(body: string, about: boolean): { sql: string; params: string[] } {
  const at = about ? body.lastIndexOf(CONTACT_MESSAGE_ID_SLOT) : -1;
  if (at < 0) return { sql: "?", params: [body] };
  return { sql: "? || last_insert_rowid() || ?", params: [body.slice(0, at), body.slice(at + CONTACT_MESSAGE_ID_SLOT.length)] };
}

/**
 * The INSERT that queues `message`, to run in the caller's own `db.batch([...])` beside the write
 * it belongs to (both or neither); it returns the new row's id for `announceMail` (`queuedIds`).
 * Throws at once for a message that could never be sent.
 */
export function queueMail(db: D1Database, message: MailMessage, now = Date.now(), { onlyIf, aboutPreviousContactMessage = false }: QueueOptions = {}): D1PreparedStatement {
  const problem = messageProblem(message);
  if (problem) throw new Error(`queueMail: ${problem}`);
  const text = bodySql(message.text, aboutPreviousContactMessage);
  const html = bodySql(message.html, aboutPreviousContactMessage);
  return db
    .prepare(
      `INSERT INTO mail_outbox (kind, recipient, subject, text_body, html_body, headers, reply_to, status, attempts, next_attempt_at, created_at, contact_message_id)
       SELECT ?, ?, ?, ${text.sql}, ${html.sql}, ?, ?, 'queued', 0, ?, ?, ${aboutPreviousContactMessage ? "last_insert_rowid()" : "NULL"} WHERE ${onlyIf?.sql ?? "1"} RETURNING id`,
    )
    .bind(
      message.kind,
      message.to,
      message.subject,
      ...text.params,
      ...html.params,
      JSON.stringify(message.headers ?? {}),
      message.replyTo ?? null,
      now,
      now,
      ...(onlyIf?.params ?? []),
    );
}

/** The ids a `queueMail` statement's result holds (none when its condition did not hold). */
export function queuedIds(result: D1Result | undefined): number[] {
  return ((result?.results ?? []) as { id: number }[]).map((r) => r.id);
}

/**
 * Hands stored messages to the mail queue after the response (`waitUntil`): the visitor never waits
 * for it. Should the queue refuse, the Cron Trigger sends them SAFETY_NET_AFTER_MS later. Under
 * `npm run dev` (Vite), which runs no queue consumer, the consumer's code runs here instead.
 */
export function announceMail(env: Env, ctx: Pick<ExecutionContext, "waitUntil">, ids: number[]): void {
  if (!ids.length) return;
  const queue = env.MAIL_QUEUE as Queue<MailJob> | undefined;
  const announced = queue ? queue.sendBatch(ids.map((id) => ({ body: { id }, contentType: "json" as const }))) : deliverNow(env, ids);
  ctx.waitUntil(announced.catch((error: unknown) => log("error", "[mail] not announced; the Cron Trigger will send it", { error })));
}

async function deliverNow(env: Env, ids: number[]): Promise<void> {
  const config = smtpConfig(env);
  await inPool(ids, (id) => deliverOne(env, config, { id }, Date.now()));
}

// Once sent or given up, a message's body (which may hold a confirmation or unsubscribe link) is
// no longer needed: only who, what kind, when and why it failed stay on record.
const FORGET_BODY = "text_body = '', html_body = '', headers = '{}', reply_to = NULL";
/** Sent messages' records are deleted after this long. */
export const KEEP_SENT_MS = 30 * 24 * 60 * MINUTE;
/**
 * Given-up messages' records (recipient, subject, the server's reason) are deleted this long after
 * they were queued: as long as sent ones, time enough to see on the dashboard why mail failed.
 */
export const KEEP_FAILED_MS = 30 * 24 * 60 * MINUTE;

interface OutboxRow {
  id: number;
  kind: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  headers: string;
  reply_to: string | null;
  attempts: number;
  created_at: number;
}

const CLAIMED = "id, kind, recipient, subject, text_body, html_body, headers, reply_to, attempts, created_at";

export interface DeliveryResult {
  sent: number;
  retried: number;
  gaveUp: number;
}

/**
 * What became of one message: sent; to be tried again `retryInMs` later; given up; not ours to
 * send (already sent, given up or deleted); or being sent by another run right now.
 */
type Outcome = { is: "sent" | "gave-up" | "gone" } | { is: "retry" | "busy"; retryInMs: number };

/**
 * Sends one outbox message: claims it (a lease of LEASE_MS, unless another run holds it), sends
 * it, then marks it sent, schedules its retry, or gives it up once it is a day old. `row` is
 * the claimed row when the caller claimed it already.
 */
async function deliverOne(env: Env, config: SmtpConfig, job: MailJob | OutboxRow, now: number): Promise<Outcome> {
  let row: OutboxRow | null = "kind" in job ? job : null;
  if (!row) {
    row = await env.DB.prepare(
      `UPDATE mail_outbox SET leased_until = ?1, attempts = attempts + 1 WHERE id = ?2 AND status = 'queued' AND leased_until <= ?3 RETURNING ${CLAIMED}`,
    )
      .bind(now + LEASE_MS, job.id, now)
      .first<OutboxRow>();
    if (!row) {
      const held = await env.DB.prepare("SELECT leased_until FROM mail_outbox WHERE id = ? AND status = 'queued'").bind(job.id).first<{ leased_until: number }>();
      return held ? { is: "busy", retryInMs: Math.max(1_000, held.leased_until - now) } : { is: "gone" };
    }
  }
  const fields = { mailId: row.id, kind: row.kind, to: maskAddress(row.recipient), attempt: row.attempts };
  try {
    await sendMail(config, {
      kind: row.kind,
      to: row.recipient,
      subject: row.subject,
      text: row.text_body,
      html: row.html_body,
      ...(row.reply_to ? { replyTo: row.reply_to } : {}),
      headers: JSON.parse(row.headers) as Record<string, string>,
    });
  } catch (error) {
    const reason = maskAddresses(error instanceof Error ? error.message : String(error)).slice(0, 500);
    if (now - row.created_at >= GIVE_UP_AFTER_MS) {
      await env.DB.prepare(`UPDATE mail_outbox SET status = 'failed', leased_until = 0, last_error = ?, ${FORGET_BODY} WHERE id = ?`).bind(reason, row.id).run();
      log("error", "[mail] gave up", { ...fields, reason });
      return { is: "gave-up" };
    }
    const delay = retryDelayMs(row.attempts);
    await env.DB.prepare("UPDATE mail_outbox SET next_attempt_at = ?, leased_until = 0, last_error = ? WHERE id = ?").bind(now + delay, reason, row.id).run();
    log("warn", "[mail] will retry", { ...fields, reason, retryAt: new Date(now + delay).toISOString() });
    return { is: "retry", retryInMs: delay };
  }
  await env.DB.prepare(`UPDATE mail_outbox SET status = 'sent', sent_at = ?, leased_until = 0, last_error = NULL, ${FORGET_BODY} WHERE id = ?`).bind(now, row.id).run();
  log("info", "[mail] sent", fields);
  return { is: "sent" };
}

/** Runs `work` on every item, CONCURRENCY at a time. */
async function inPool<T, R>(items: T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, lane));
  return results;
}

/**
 * The mail queue's consumer (worker/server.ts `queue`): sends each message of the batch,
 * CONCURRENCY at a time; acknowledges what was sent, given up or is gone, and hands the rest back
 * to the queue with the retry delay (its `max_retries` then its dead-letter queue; the Cron
 * Trigger keeps trying after that, until the give-up).
 */
export async function deliverQueued(batch: MessageBatch<MailJob>, env: Env): Promise<void> {
  let config: SmtpConfig;
  try {
    config = smtpConfig(env);
  } catch (error) {
    log("error", "[mail] SMTP is not configured", { error });
    batch.retryAll({ delaySeconds: 300 });
    return;
  }
  await inPool([...batch.messages], async (message) => {
    const id = Number((message.body as Partial<MailJob> | null)?.id);
    if (!Number.isSafeInteger(id)) {
      log("error", "[mail] queue message without an outbox id", { messageId: message.id });
      message.ack();
      return;
    }
    const outcome = await deliverOne(env, config, { id }, Date.now()).catch((error: unknown) => {
      log("error", "[mail] delivery failed", { mailId: id, error });
      return { is: "retry", retryInMs: 30_000 } as const;
    });
    if (outcome.is === "retry" || outcome.is === "busy") message.retry({ delaySeconds: Math.ceil(outcome.retryInMs / 1000) });
    else message.ack();
  });
}

/**
 * The Cron Trigger's safety net: sends the messages due at least `olderThanMs` ago (the queue
 * should have sent them), CONCURRENCY at a time, each claimed with its own lease, until none is
 * due or the run's time is up. `now` is the run's clock (the tests pass one).
 */
export async function deliverDueMail(env: Env, now = Date.now(), { olderThanMs = 0 } = {}): Promise<DeliveryResult> {
  const result: DeliveryResult = { sent: 0, retried: 0, gaveUp: 0 };
  let config: SmtpConfig;
  try {
    config = smtpConfig(env);
  } catch (error) {
    // Nothing is claimed: the messages wait for a configuration that works.
    log("error", "[mail] SMTP is not configured", { error });
    return result;
  }
  const stopAt = Date.now() + CRON_BUDGET_MS;
  while (Date.now() < stopAt) {
    const { results: claimed } = await env.DB.prepare(
      `UPDATE mail_outbox SET leased_until = ?1, attempts = attempts + 1
       WHERE id IN (SELECT id FROM mail_outbox WHERE status = 'queued' AND next_attempt_at <= ?2 AND leased_until <= ?3 ORDER BY next_attempt_at, id LIMIT ?4)
       RETURNING ${CLAIMED}`,
    )
      .bind(now + LEASE_MS, now - olderThanMs, now, CONCURRENCY)
      .all<OutboxRow>();
    const outcomes = await inPool(claimed, (row) => deliverOne(env, config, row, now));
    for (const o of outcomes) {
      if (o.is === "sent") result.sent++;
      else if (o.is === "retry") result.retried++;
      else if (o.is === "gave-up") result.gaveUp++;
    }
    if (claimed.length < CONCURRENCY) break;
  }
  return result;
}

/** Deletes the records of messages sent more than KEEP_SENT_MS ago and given up more than KEEP_FAILED_MS after queueing; returns how many. */
export async function pruneMail(db: D1Database, now = Date.now()): Promise<number> {
  const { meta } = await db
    .prepare("DELETE FROM mail_outbox WHERE (status = 'sent' AND sent_at < ?) OR (status = 'failed' AND created_at < ?)")
    .bind(now - KEEP_SENT_MS, now - KEEP_FAILED_MS)
    .run();
  return meta.changes ?? 0;
}

export interface FailedDelivery {
  id: number;
  kind: string;
  recipient: string;
  subject: string;
  attempts: number;
  lastError: string | null;
  createdAt: number;
}

/** The newest messages that were given up, for the admin dashboard. */
export async function failedDeliveries(db: D1Database, limit = 20): Promise<FailedDelivery[]> {
  const { results } = await db
    .prepare(
      `SELECT id, kind, recipient, subject, attempts, last_error AS lastError, created_at AS createdAt
       FROM mail_outbox WHERE status = 'failed' ORDER BY created_at DESC, id DESC LIMIT ?`,
    )
    .bind(limit)
    .all<FailedDelivery>();
  return results;
}

export interface OutboxQueue {
  /** Messages not yet sent nor given up. */
  waiting: number;
  /** When the oldest of them was queued (ms), or null when none waits. */
  oldestQueuedAt: number | null;
}

/** The outbox's queue depth and its oldest waiting message, for the dashboard (a few rows: the status index). */
export async function outboxQueue(db: D1Database): Promise<OutboxQueue> {
  const row = await db
    .prepare("SELECT COUNT(*) AS waiting, MIN(created_at) AS oldest FROM mail_outbox WHERE status = 'queued'")
    .first<{ waiting: number; oldest: number | null }>();
  return { waiting: row?.waiting ?? 0, oldestQueuedAt: row?.oldest ?? null };
}

/** How many messages are waiting, sent and given up. */
export async function outboxCounts(db: D1Database): Promise<{ queued: number; sent: number; failed: number }> {
  const { results } = await db.prepare("SELECT status, COUNT(*) AS n FROM mail_outbox GROUP BY status").all<{ status: string; n: number }>();
  const count = (status: string) => results.find((r) => r.status === status)?.n ?? 0;
  return { queued: count("queued"), sent: count("sent"), failed: count("failed") };
}
