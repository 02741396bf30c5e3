// The mail outbox (migrations/0004, docs/decisions/015-mail-delivery.md): the app stores an e-mail
// in the same D1 batch as the write it belongs to; then the request announces it on the mail queue
// (Cloudflare Queues, `announceMail`), whose consumer sends it within seconds with retries, and
// the every-minute Cron Trigger (`deliverDueMail`) sends whatever the queue did not, so a slow or
// failing SMTP server never fails or slows a visitor's request and nothing is lost.
import { and, asc, count, desc, eq, inArray, lt, lte, min, or, sql, type SQL } from "drizzle-orm";
import { leads, mailOutbox } from "~/db/schema";
import { isSuppressed } from "~/features/privacy/suppression.server";
import { columnName, getDb, together, type Db, type Statement } from "~/utils/db.server";
import { log } from "~/utils/log.server";
import { mailTransport } from "./config.server";
import { ALERT_KIND_PREFIX, maskAddress, maskAddresses, messageProblem, type MailMessage } from "./message";
import { isSiteAddress } from "./site-addresses.server";
import { SEND_TIMEOUT_MS, type MailTransport } from "./transport.server";

/** Whether `email` is a confirmed subscriber of the investor alerts (the lead's email is stored normalised). */
async function alertsConfirmed(db: Db, email: string): Promise<boolean> {
  const lead = await db
    .select({ one: sql`1` })
    .from(leads)
    .where(and(eq(leads.email, email.toLowerCase()), eq(leads.topic, "alerts"), eq(leads.status, "confirmed")))
    .get();
  return lead !== undefined;
}

const MINUTE = 60_000;
/**
 * A message being sent is not taken again for this long: one message's delivery (SEND_TIMEOUT_MS
 * and the QUIT) with room to spare. Each message is claimed alone, right before it is sent, so a
 * run that is cut off holds at most its few messages in flight, for at most this long. The lease
 * starts at the real clock of the claim (never a run's start or the cron's `scheduledTime`: a
 * 45 s run would hand out leases already over), so it outlasts the send it covers.
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
const CONCURRENCY = 20;
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

interface QueueOptions {
  /** A condition on the batch's earlier writes: queued only if it holds. */
  onlyIf?: SQL;
  /**
   * The e-mail is about the Help message the batch inserted just before it (its notification): the
   * row keeps that message's id, so erasing or exporting the sender finds it, and the bodies get
   * the id at their last CONTACT_MESSAGE_ID_SLOT (the link, which follows the visitor's own text:
   * a visitor who types the slot changes nothing).
   */
  aboutPreviousContactMessage?: boolean;
  /**
   * Not sent before this time (ms): mail the rate limiter paces (a burst past the form's ceiling,
   * docs/decisions/059). Its caller does not announce it; the Cron Trigger sends it once due.
   */
  notBefore?: number;
}

/** A body as SQL: itself, or its two halves around the id of the Help message inserted before. */
function bodySql(body: string, about: boolean): SQL {
  const at = about ? body.lastIndexOf(CONTACT_MESSAGE_ID_SLOT) : -1;
  if (at < 0) return sql`${body}`;
  return sql`${body.slice(0, at)} || last_insert_rowid() || ${body.slice(at + CONTACT_MESSAGE_ID_SLOT.length)}`;
}

const QUEUED_COLUMNS = sql.join(
  [
    mailOutbox.kind,
    mailOutbox.recipient,
    mailOutbox.subject,
    mailOutbox.textBody,
    mailOutbox.htmlBody,
    mailOutbox.headers,
    mailOutbox.replyTo,
    mailOutbox.status,
    mailOutbox.attempts,
    mailOutbox.nextAttemptAt,
    mailOutbox.createdAt,
    mailOutbox.contactMessageId,
  ].map(columnName),
  sql`, `,
);

/**
 * The INSERT that queues `message`, to run in the caller's own `batch(db, [...])` beside the write
 * it belongs to (both or neither); it returns the new row's id for `announceMail` (`queuedIds`).
 * Throws at once for a message that could never be sent. Raw SQL (docs/decisions/024-data-layer.md):
 * an INSERT … SELECT under the caller's condition, linked to the Help message inserted just before
 * it by `last_insert_rowid()`, which the builder cannot say.
 */
export function queueMail(
  db: Db,
  message: MailMessage,
  now = Date.now(),
  { onlyIf, aboutPreviousContactMessage = false, notBefore = now }: QueueOptions = {},
): Statement {
  const problem = messageProblem(message);
  if (problem) throw new Error(`queueMail: ${problem}`);
  const about = aboutPreviousContactMessage;
  return sql`INSERT INTO ${mailOutbox} (${QUEUED_COLUMNS})
      SELECT ${message.kind}, ${message.to}, ${message.subject}, ${bodySql(message.text, about)}, ${bodySql(message.html, about)},
        ${JSON.stringify(message.headers ?? {})}, ${message.replyTo ?? null}, 'queued', 0, ${Math.max(now, notBefore)}, ${now}, ${about ? sql`last_insert_rowid()` : sql`NULL`}
      WHERE ${onlyIf ?? sql`1`} RETURNING ${columnName(mailOutbox.id)}`;
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
  const announced = queue
    ? queue.sendBatch(ids.map((id) => ({ body: { id }, contentType: "json" as const })))
    : deliverNow(env, ids);
  ctx.waitUntil(
    announced.catch((error: unknown) => log("error", "[mail] not announced; the Cron Trigger will send it", { error })),
  );
}

async function deliverNow(env: Env, ids: number[]): Promise<void> {
  const transport = mailTransport(env);
  await inPool(ids, (id) => deliverOne(env, transport, { id }, Date.now));
}

// Once sent or given up, a message's body (which may hold a confirmation or unsubscribe link) is
// no longer needed: only who, what kind, when and why it failed stay on record.
const FORGET_BODY = { textBody: "", htmlBody: "", headers: "{}", replyTo: null } as const;
/** Sent messages' records are deleted after this long. */
export const KEEP_SENT_MS = 30 * 24 * 60 * MINUTE;
/**
 * Given-up messages' records (recipient, subject, the server's reason) are deleted this long after
 * they were queued: as long as sent ones, time enough to see on the dashboard why mail failed.
 */
const KEEP_FAILED_MS = 30 * 24 * 60 * MINUTE;

/** What a run that claims a message reads of it. */
const CLAIMED = {
  id: mailOutbox.id,
  kind: mailOutbox.kind,
  recipient: mailOutbox.recipient,
  subject: mailOutbox.subject,
  textBody: mailOutbox.textBody,
  htmlBody: mailOutbox.htmlBody,
  headers: mailOutbox.headers,
  replyTo: mailOutbox.replyTo,
  attempts: mailOutbox.attempts,
  leasedUntil: mailOutbox.leasedUntil,
  createdAt: mailOutbox.createdAt,
};

type OutboxRow = Pick<typeof mailOutbox.$inferSelect, keyof typeof CLAIMED>;

/** A claim: the lease until `until`, and one more attempt. */
const claim = (until: number) => ({ leasedUntil: until, attempts: sql`${mailOutbox.attempts} + 1` });

/**
 * The row while `row`'s claim still holds it: its attempt count and lease end are that claim's
 * token (every claim raises the count), so a run whose lease ran out and was claimed again by
 * another writes nothing over the other's.
 */
const stillOurs = (row: OutboxRow) =>
  and(
    eq(mailOutbox.id, row.id),
    eq(mailOutbox.status, "queued"),
    eq(mailOutbox.attempts, row.attempts),
    eq(mailOutbox.leasedUntil, row.leasedUntil),
  );

interface DeliveryResult {
  sent: number;
  retried: number;
  gaveUp: number;
}

/**
 * What became of one message: sent; to be tried again `retryInMs` later; given up; not ours to
 * send (already sent, given up or deleted); being sent by another run right now; or its result
 * not written because another run claimed it meanwhile (that run's result counts).
 */
type Outcome = { is: "sent" | "gave-up" | "gone" | "lost" } | { is: "retry" | "busy"; retryInMs: number };

/** The mail's clock: read at every claim and result, so a long run never works from a stale time. */
type Clock = () => number;

/**
 * Sends one outbox message: claims it (a lease of LEASE_MS, unless another run holds it), sends
 * it, then, while its claim still holds it, marks it sent, schedules its retry, or gives it up
 * (a permanent refusal of the message at once, any other failure once it is a day old). `row` is
 * the claimed row when the caller claimed it already.
 */
async function deliverOne(
  env: Env,
  transport: MailTransport,
  job: MailJob | OutboxRow,
  clock: Clock,
): Promise<Outcome> {
  const db = getDb(env);
  let row: OutboxRow | null = "kind" in job ? job : null;
  if (!row) {
    const queued = and(eq(mailOutbox.id, job.id), eq(mailOutbox.status, "queued"));
    const now = clock();
    [row = null] = await db
      .update(mailOutbox)
      .set(claim(now + LEASE_MS))
      .where(and(queued, lte(mailOutbox.leasedUntil, now)))
      .returning(CLAIMED);
    if (!row) {
      const held = await db.select({ leasedUntil: mailOutbox.leasedUntil }).from(mailOutbox).where(queued).get();
      return held ? { is: "busy", retryInMs: Math.max(1_000, held.leasedUntil - now) } : { is: "gone" };
    }
  }
  const claimed = row;
  const fields = { mailId: row.id, kind: row.kind, to: maskAddress(row.recipient), attempt: row.attempts };
  /** Writes the result while the claim holds; "lost" when another run has claimed the message since. */
  const settle = async (result: Partial<typeof mailOutbox.$inferInsert>, outcome: Outcome): Promise<Outcome> => {
    const [kept] = await db.update(mailOutbox).set(result).where(stillOurs(claimed)).returning({ id: mailOutbox.id });
    if (kept) return outcome;
    log("warn", "[mail] lease lost before the result was written; the run that claimed it since decides", {
      ...fields,
      result: outcome.is,
    });
    return { is: "lost" };
  };
  // The list is read again right before sending: an address erased or suppressed (any spelling of
  // its mailbox) since the message was queued gets nothing, and no record of it is kept. Mail to
  // the site's own addresses (the contact notifications) is never suppressed: nobody outside can
  // switch it off.
  if (!isSiteAddress(env, row.recipient) && (await isSuppressed(env, row.recipient))) {
    const [dropped] = await db.delete(mailOutbox).where(stillOurs(claimed)).returning({ id: mailOutbox.id });
    if (dropped) log("info", "[mail] not sent: the address is suppressed", fields);
    return { is: dropped ? "gone" : "lost" };
  }
  // An investor alert queued before its reader unsubscribed from the alerts (or was marked
  // undeliverable) is not sent either: the lead's topic status is read right before sending.
  if (row.kind.startsWith(ALERT_KIND_PREFIX) && !(await alertsConfirmed(db, row.recipient))) {
    const [dropped] = await db.delete(mailOutbox).where(stillOurs(claimed)).returning({ id: mailOutbox.id });
    if (dropped) log("info", "[mail] not sent: no longer subscribed to the investor alerts", fields);
    return { is: dropped ? "gone" : "lost" };
  }
  // The transport's step (transport.server.ts): the only part that differs between SMTP and the Email Service.
  const result = await transport.send({
    kind: row.kind,
    to: row.recipient,
    subject: row.subject,
    text: row.textBody,
    html: row.htmlBody,
    ...(row.replyTo ? { replyTo: row.replyTo } : {}),
    headers: JSON.parse(row.headers) as Record<string, string>,
  });
  if (result.is !== "sent") {
    const reason = maskAddresses(result.reason).slice(0, 500);
    const now = clock();
    // Refused for good (an SMTP 5xx to the recipient or the message, a suppressed recipient, a
    // malformed message): sending it again cannot succeed, so no day of retries.
    const permanent = result.is === "permanent";
    if (permanent || now - row.createdAt >= GIVE_UP_AFTER_MS) {
      const outcome = await settle(
        { status: "failed", leasedUntil: 0, lastError: reason, ...FORGET_BODY },
        { is: "gave-up" },
      );
      if (outcome.is === "gave-up") log("error", "[mail] gave up", { ...fields, reason, permanent });
      return outcome;
    }
    const delay = retryDelayMs(row.attempts);
    const outcome = await settle(
      { nextAttemptAt: now + delay, leasedUntil: 0, lastError: reason },
      { is: "retry", retryInMs: delay },
    );
    if (outcome.is === "retry")
      log("warn", "[mail] will retry", { ...fields, reason, retryAt: new Date(now + delay).toISOString() });
    return outcome;
  }
  const outcome = await settle(
    { status: "sent", sentAt: clock(), leasedUntil: 0, lastError: null, messageId: result.messageId, ...FORGET_BODY },
    { is: "sent" },
  );
  if (outcome.is === "sent") {
    log("info", "[mail] sent", {
      ...fields,
      transport: transport.name,
      ...(result.reply ? { reply: maskAddresses(result.reply) } : {}),
    });
  }
  return outcome;
}

/** Runs `work` on every item, CONCURRENCY at a time. */
async function inPool<T, R>(items: T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  // One iterator shared by the lanes: each takes the next item when it is free.
  const queue = items.entries();
  const lane = async () => {
    for (const [i, item] of queue) results[i] = await work(item);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, lane));
  return results;
}

/**
 * The mail queue's consumer (worker/server.ts `queue`): sends each mail message of the batch,
 * CONCURRENCY at a time; acknowledges what was sent, given up or is gone, and hands the rest back
 * to the queue with the retry delay (its `max_retries` then its dead-letter queue; the Cron
 * Trigger keeps trying after that, until the give-up).
 */
export async function deliverQueued(messages: readonly Message<MailJob>[], env: Env): Promise<void> {
  let transport: MailTransport;
  try {
    transport = mailTransport(env);
  } catch (error) {
    log("error", "[mail] the mail transport is not configured", { error });
    for (const message of messages) message.retry({ delaySeconds: 300 });
    return;
  }
  await inPool([...messages], async (message) => {
    const id = Number((message.body as Partial<MailJob> | null)?.id);
    if (!Number.isSafeInteger(id)) {
      log("error", "[mail] queue message without an outbox id", { messageId: message.id });
      message.ack();
      return;
    }
    const outcome = await deliverOne(env, transport, { id }, Date.now).catch((error: unknown) => {
      log("error", "[mail] delivery failed", { mailId: id, error });
      return { is: "retry", retryInMs: 30_000 } as const;
    });
    if (outcome.is === "retry" || outcome.is === "busy")
      message.retry({ delaySeconds: Math.ceil(outcome.retryInMs / 1000) });
    else message.ack();
  });
}

/**
 * The Cron Trigger's safety net: sends the messages due at least `olderThanMs` ago (the queue
 * should have sent them), CONCURRENCY at a time, each claimed with its own lease, until none is
 * due or the run's time is up. Every claim, due query and retry reads the real clock; a test
 * passes `now` to freeze it at a time of its choosing.
 */
export async function deliverDueMail(env: Env, now?: number, { olderThanMs = 0 } = {}): Promise<DeliveryResult> {
  const clock: Clock = now === undefined ? Date.now : () => now;
  const result: DeliveryResult = { sent: 0, retried: 0, gaveUp: 0 };
  let transport: MailTransport;
  try {
    transport = mailTransport(env);
  } catch (error) {
    // Nothing is claimed: the messages wait for a configuration that works.
    log("error", "[mail] the mail transport is not configured", { error });
    return result;
  }
  const stopAt = Date.now() + CRON_BUDGET_MS;
  while (Date.now() < stopAt) {
    const db = getDb(env);
    const now = clock();
    const due = db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.status, "queued"),
          lte(mailOutbox.nextAttemptAt, now - olderThanMs),
          lte(mailOutbox.leasedUntil, now),
        ),
      )
      .orderBy(asc(mailOutbox.nextAttemptAt), asc(mailOutbox.id))
      .limit(CONCURRENCY);
    const claimed = await db
      .update(mailOutbox)
      .set(claim(now + LEASE_MS))
      .where(inArray(mailOutbox.id, due))
      .returning(CLAIMED);
    const outcomes = await inPool(claimed, (row) => deliverOne(env, transport, row, clock));
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
export async function pruneMail(db: Db, now = Date.now()): Promise<number> {
  const { meta } = await db
    .delete(mailOutbox)
    .where(
      or(
        and(eq(mailOutbox.status, "sent"), lt(mailOutbox.sentAt, now - KEEP_SENT_MS)),
        and(eq(mailOutbox.status, "failed"), lt(mailOutbox.createdAt, now - KEEP_FAILED_MS)),
      ),
    );
  return meta.changes;
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
export async function failedDeliveries(db: Db, limit = 20): Promise<FailedDelivery[]> {
  const m = mailOutbox;
  const [rows] = await together(db, [
    db
      .select({
        id: m.id,
        kind: m.kind,
        recipient: m.recipient,
        subject: m.subject,
        attempts: m.attempts,
        lastError: m.lastError,
        createdAt: m.createdAt,
      })
      .from(m)
      .where(eq(m.status, "failed"))
      .orderBy(desc(m.createdAt), desc(m.id))
      .limit(limit),
  ]);
  return rows;
}

export interface OutboxQueue {
  /** Messages not yet sent nor given up. */
  waiting: number;
  /** When the oldest of them was queued (ms), or null when none waits. */
  oldestQueuedAt: number | null;
}

/** The outbox's queue depth and its oldest waiting message, for the dashboard (a few rows: the status index). */
export async function outboxQueue(db: Db): Promise<OutboxQueue> {
  const [[row]] = await together(db, [
    db
      .select({ waiting: count(), oldest: min(mailOutbox.createdAt) })
      .from(mailOutbox)
      .where(eq(mailOutbox.status, "queued")),
  ]);
  return { waiting: row?.waiting ?? 0, oldestQueuedAt: row?.oldest ?? null };
}
