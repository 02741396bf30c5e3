// The mail outbox (migrations/0004, docs/decisions/015-mail-delivery.md): the app stores an e-mail
// in the same D1 batch as the write it belongs to, and delivery happens later, right after the
// response (`deliverSoon`) and every minute from the Cron Trigger (`deliverDueMail`), with retries,
// so a slow or failing SMTP server never fails or slows a visitor's request and nothing is lost.
import { log } from "~/utils/log.server";
import { smtpConfig } from "./config.server";
import { maskAddress, maskAddresses, messageProblem, type MailMessage } from "./message";
import { sendMail } from "./smtp.server";

const MINUTE = 60_000;
/**
 * A claimed message is not claimed again for this long: longer than a whole batch can take
 * (20 × 15 s plus closing), so only a run that died mid-send lets its messages go again.
 */
export const LEASE_MS = 10 * MINUTE;
/** After this long in the outbox, a message that still fails is given up (status "failed"). */
export const GIVE_UP_AFTER_MS = 24 * 60 * MINUTE;
/** Messages one run claims: at 15 s per unreachable server, well inside a cron run's time. */
export const BATCH_SIZE = 20;

/** 1, 2, 4, … minutes after the n-th failed attempt, at most an hour apart. */
export function retryDelayMs(attempts: number): number {
  return Math.min(MINUTE * 2 ** Math.max(0, attempts - 1), 60 * MINUTE);
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
 * it belongs to (both or neither). Throws at once for a message that could never be sent.
 */
export function queueMail(db: D1Database, message: MailMessage, now = Date.now(), { onlyIf, aboutPreviousContactMessage = false }: QueueOptions = {}): D1PreparedStatement {
  const problem = messageProblem(message);
  if (problem) throw new Error(`queueMail: ${problem}`);
  const text = bodySql(message.text, aboutPreviousContactMessage);
  const html = bodySql(message.html, aboutPreviousContactMessage);
  return db
    .prepare(
      `INSERT INTO mail_outbox (kind, recipient, subject, text_body, html_body, headers, reply_to, status, attempts, next_attempt_at, created_at, contact_message_id)
       SELECT ?, ?, ?, ${text.sql}, ${html.sql}, ?, ?, 'queued', 0, ?, ?, ${aboutPreviousContactMessage ? "last_insert_rowid()" : "NULL"} WHERE ${onlyIf?.sql ?? "1"}`,
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

export interface DeliveryResult {
  sent: number;
  retried: number;
  gaveUp: number;
}

/**
 * Sends what is due: claims up to BATCH_SIZE queued messages in one UPDATE … RETURNING (a run that
 * overlaps sees them leased and leaves them), sends each, then marks it sent, schedules its retry,
 * or gives it up once it is a day old. `now` is the run's clock (the tests pass one).
 */
export async function deliverDueMail(env: Env, now = Date.now()): Promise<DeliveryResult> {
  const result: DeliveryResult = { sent: 0, retried: 0, gaveUp: 0 };
  let config;
  try {
    config = smtpConfig(env);
  } catch (error) {
    // Nothing is claimed: the messages wait for a configuration that works.
    log("error", "[mail] SMTP is not configured", { error });
    return result;
  }
  const { results: claimed } = await env.DB.prepare(
    `UPDATE mail_outbox SET next_attempt_at = ?1, attempts = attempts + 1
     WHERE id IN (SELECT id FROM mail_outbox WHERE status = 'queued' AND next_attempt_at <= ?2 ORDER BY next_attempt_at, id LIMIT ?3)
     RETURNING id, kind, recipient, subject, text_body, html_body, headers, reply_to, attempts, created_at`,
  )
    .bind(now + LEASE_MS, now, BATCH_SIZE)
    .all<OutboxRow>();

  for (const row of claimed) {
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
      await env.DB.prepare(`UPDATE mail_outbox SET status = 'sent', sent_at = ?, last_error = NULL, ${FORGET_BODY} WHERE id = ?`).bind(now, row.id).run();
      result.sent++;
      log("info", "[mail] sent", fields);
    } catch (error) {
      const reason = maskAddresses(error instanceof Error ? error.message : String(error)).slice(0, 500);
      if (now - row.created_at >= GIVE_UP_AFTER_MS) {
        await env.DB.prepare(`UPDATE mail_outbox SET status = 'failed', last_error = ?, ${FORGET_BODY} WHERE id = ?`).bind(reason, row.id).run();
        result.gaveUp++;
        log("error", "[mail] gave up", { ...fields, reason });
      } else {
        const next = now + retryDelayMs(row.attempts);
        await env.DB.prepare("UPDATE mail_outbox SET next_attempt_at = ?, last_error = ? WHERE id = ?").bind(next, reason, row.id).run();
        result.retried++;
        log("warn", "[mail] will retry", { ...fields, reason, retryAt: new Date(next).toISOString() });
      }
    }
  }
  return result;
}

/** The isolate's delivery run in flight, and whether more mail was queued while it ran. */
let running: Promise<void> | null = null;
let again = false;

/**
 * Delivers what is due right after the response: the visitor never waits for, or on, SMTP. Runs in
 * one isolate coalesce: while one is in flight, a burst of signups asks for one more run after it
 * instead of a run (and an SMTP connection) each.
 */
export function deliverSoon(env: Env, ctx: Pick<ExecutionContext, "waitUntil">): void {
  if (running) {
    // The run belongs to the request that started it (whose waitUntil keeps it alive); this one
    // only asks it to go round once more.
    again = true;
    return;
  }
  running = (async () => {
    try {
      do {
        again = false;
        await deliverDueMail(env);
      } while (again);
    } catch (error) {
      log("error", "[mail] delivery run failed", { error });
    } finally {
      running = null;
    }
  })();
  ctx.waitUntil(running);
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

/** How many messages are waiting, sent and given up. */
export async function outboxCounts(db: D1Database): Promise<{ queued: number; sent: number; failed: number }> {
  const { results } = await db.prepare("SELECT status, COUNT(*) AS n FROM mail_outbox GROUP BY status").all<{ status: string; n: number }>();
  const count = (status: string) => results.find((r) => r.status === status)?.n ?? 0;
  return { queued: count("queued"), sent: count("sent"), failed: count("failed") };
}
