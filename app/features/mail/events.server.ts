// What happens to mail after it left (docs/decisions/015-mail-delivery.md): the sending domain's
// delivery events. The Email Service publishes them to a queue (an event subscription; consumed by
// worker/server.ts `queue`); `fromEmailService` reads one. An SMTP provider reports the same facts
// through its own webhook: a receiver for it would map each report to a MailEvent and call
// `handleMailEvent`, the one place that acts on them. A hard bounce marks the lead undeliverable,
// a complaint unsubscribes it and suppresses the address, a rejection or failure gives the outbox
// row up; soft bounces change nothing (the provider retries them itself).
import { and, count, eq, gte, inArray, lt, ne, sql } from "drizzle-orm";
import { leads, mailEvents, mailOutbox, MAIL_EVENT_KINDS, type MailEventKind } from "~/db/schema";
import { unsubscribeLead } from "~/features/leads/subscription.server";
import { suppressStatements } from "~/features/privacy/suppression.server";
import { batch, getDb, together, type Db } from "~/utils/db.server";
import { log } from "~/utils/log.server";
import { normaliseEmail } from "~/utils/mail-address";
import { LIST_KIND_PREFIXES, maskAddress, maskAddresses } from "./message";
import { isSiteAddress } from "./site-addresses.server";

/** One delivery event, whichever transport reported it. */
interface MailEvent {
  /** The event's own id: a redelivered event is counted once. */
  id: string;
  kind: MailEventKind;
  /** The id the transport gave the message when it was sent (mail_outbox.message_id), if named. */
  messageId: string | null;
  recipient: string;
  /** A bounce the receiver gave as permanent (the mailbox does not exist); false for a soft one. */
  hard: boolean;
  /** What the receiver or the service said, for the dashboard and the log. */
  reason: string | null;
  /** When it happened (ms). */
  at: number;
}

/** The days of events the dashboard counts, and how long their rows are kept. */
const EVENT_WINDOW_MS = 30 * 24 * 60 * 60_000;

const PREFIX = "cf.email.sending.message.";

/**
 * An Email Service event as its queue delivers it (`{ type: "cf.email.sending.message.bounced",
 * payload: { eventId, messageId, recipient, bounce: { type }, … }, metadata: { eventTimestamp } }`),
 * or null for anything else.
 */
function fromEmailService(body: unknown): MailEvent | null {
  const event = body as {
    type?: unknown;
    payload?: {
      eventId?: unknown;
      messageId?: unknown;
      recipient?: unknown;
      bounce?: { type?: unknown; reason?: unknown };
      rejection?: { reason?: unknown; detail?: unknown };
      failure?: { reason?: unknown };
      delivery?: { smtpResponse?: unknown };
    };
    metadata?: { eventTimestamp?: unknown };
  } | null;
  const kind = typeof event?.type === "string" && event.type.startsWith(PREFIX) ? event.type.slice(PREFIX.length) : "";
  const p = event?.payload;
  if (
    !(MAIL_EVENT_KINDS as readonly string[]).includes(kind) ||
    typeof p?.eventId !== "string" ||
    typeof p.recipient !== "string"
  )
    return null;
  const text = (...values: unknown[]) =>
    values.filter((v): v is string => typeof v === "string" && v !== "").join(": ") || null;
  const at = Date.parse(String(event?.metadata?.eventTimestamp ?? ""));
  return {
    id: p.eventId,
    kind: kind as MailEventKind,
    messageId: typeof p.messageId === "string" ? p.messageId : null,
    recipient: p.recipient,
    hard: p.bounce?.type === "hard",
    reason:
      text(p.bounce?.reason, p.rejection?.reason, p.rejection?.detail, p.failure?.reason) ??
      text(p.delivery?.smtpResponse),
    at: Number.isFinite(at) ? at : Date.now(),
  };
}

/** What one event did, for the log and the tests. */
type EventOutcome = "undeliverable" | "unsubscribed" | "gave-up" | "counted" | "ignored";

/**
 * Records one event and acts on it, in one batch. It acts only when all of these hold, and is
 * otherwise counted (the dashboard's numbers) with the reason logged:
 * - this handling inserted its row (`claim`): a redelivered event changes nothing more;
 * - its `messageId` is an outbox row of ours to that recipient (the event subscription covers the
 *   whole sending domain: another sender's bounce or complaint is not about our mail), and, for a
 *   change to a lead, list mail: a newsletter e-mail or an investor alert (operational mail is
 *   never switched off: 015);
 * - for a change to a lead, no signup of the address after the event: a bounce of an old
 *   e-mail must not mark the owner who signed up anew.
 * An event older than the 30 days its row is kept is ignored whole: its redelivery could no
 * longer be told from the first. Raw SQL (docs/decisions/024-data-layer.md): conditions on other
 * tables' rows written in the same batch (EXISTS, a lower-cased match), which the builder's
 * where() takes only as SQL.
 */
async function handleMailEvent(env: Env, event: MailEvent, now = Date.now()): Promise<EventOutcome> {
  const db = getDb(env);
  const email = normaliseEmail(event.recipient);
  const fields = { event: event.kind, hard: event.hard, to: maskAddress(email), messageId: event.messageId };
  if (event.at < now - EVENT_WINDOW_MS) {
    log("info", "[mail] event older than 30 days: ignored", fields);
    return "ignored";
  }
  const claim = crypto.randomUUID();
  const record = db
    .insert(mailEvents)
    .values({ eventId: event.id, kind: event.kind, at: event.at, claim })
    .onConflictDoNothing();
  const reason = maskAddresses(`${event.kind}${event.reason ? `: ${event.reason}` : ""}`).slice(0, 500);
  const fresh = sql`EXISTS (SELECT 1 FROM ${mailEvents} WHERE ${mailEvents.eventId} = ${event.id} AND ${mailEvents.claim} = ${claim})`;
  const m = mailOutbox;
  // List mail: the newsletter's and the investor alerts' (a complaint or a bounce about either acts).
  const listKind = sql.join(
    LIST_KIND_PREFIXES.map((prefix) => sql`${m.kind} LIKE ${`${prefix}%`}`),
    sql` OR `,
  );
  const ourRow = (list: boolean) =>
    event.messageId
      ? sql`EXISTS (SELECT 1 FROM ${m} WHERE ${m.messageId} = ${event.messageId} AND lower(${m.recipient}) = ${email}${list ? sql` AND (${listKind})` : sql``})`
      : sql`0`;
  const noSignupSince = sql`NOT EXISTS (SELECT 1 FROM ${leads} WHERE ${leads.email} = ${email} AND ${leads.subscribedAt} > ${event.at})`;
  /** The event may change the lead and the address. */
  const actsOnLead = sql`(${fresh} AND ${ourRow(true)} AND ${noSignupSince})`;
  // The outbox row the event is about is given up, with the reason (the dashboard lists it).
  const giveUp = event.messageId
    ? [
        db
          .update(m)
          .set({ status: "failed", leasedUntil: 0, lastError: reason })
          .where(
            and(
              eq(m.messageId, event.messageId),
              sql`lower(${m.recipient}) = ${email}`,
              inArray(m.status, ["sent", "queued"]),
              fresh,
            ),
          ),
      ]
    : [];
  // Read last, in the batch: why the event did or did not act.
  const verdict = sql`SELECT ${fresh} AS fresh, ${ourRow(false)} AS ours, ${ourRow(true)} AS list, ${noSignupSince} AS current`;
  const explain = (rows: unknown, acted: EventOutcome, line: string, lead: boolean): EventOutcome => {
    const v = (rows as D1Result<{ fresh: number; ours: number; list: number; current: number }> | undefined)
      ?.results[0];
    const why = !v?.fresh
      ? "a redelivery"
      : !v.ours
        ? "not about a message of ours to that address"
        : lead && !v.list
          ? "about operational mail"
          : lead && !v.current
            ? "older than the address's latest signup"
            : null;
    if (why === null) {
      log("warn", line, { ...fields, reason });
      return acted;
    }
    log("info", `[mail] ${event.kind}: counted, not acted on (${why})`, fields);
    return "counted";
  };

  if (event.kind === "complained" && isSiteAddress(env, email)) {
    // A complaint about mail to the site's own inbox (its notifications) switches nothing off.
    await record.run();
    log("warn", "[mail] complaint about mail to the site's own address: counted, nothing suppressed", fields);
    return "counted";
  }
  if (event.kind === "complained") {
    // Marked as spam: never mailed again, and no anonymous signup re-adds it.
    await unsubscribeLead(
      db,
      { email, onlyIf: actsOnLead },
      now,
      await suppressStatements(env, email, "complaint", now, actsOnLead),
      [record],
    );
    const [read] = await batch(db, [verdict]);
    return explain(read, "unsubscribed", "[mail] complaint: the lead is unsubscribed and the address suppressed", true);
  }
  if (event.kind === "bounced" && event.hard) {
    const results = await batch(db, [
      record,
      db
        .update(leads)
        .set({ status: "undeliverable" })
        .where(and(eq(leads.email, email), ne(leads.status, "unsubscribed"), actsOnLead)),
      ...giveUp,
      verdict,
    ]);
    return explain(results.at(-1), "undeliverable", "[mail] hard bounce: the lead is undeliverable", true);
  }
  if (event.kind === "rejected" || event.kind === "failed") {
    const results = await batch(db, [record, ...giveUp, verdict]);
    return explain(results.at(-1), "gave-up", "[mail] not delivered: given up", false);
  }
  // Delivered, deferred (the service retries it), or a soft bounce after its retries: counted only.
  await record.run();
  if (event.kind !== "delivered") log("info", `[mail] ${event.kind}`, { ...fields, reason });
  return "counted";
}

/** The events queue, by the name wrangler.toml gives it: afx-mail-events, afx-mail-events-production. */
export const isMailEventsQueue = (name: string): boolean => /^afx-mail-events(-|$)/.test(name);

/**
 * The events queue's consumer: each message is one Email Service event. One that cannot be read
 * is logged and acknowledged (a retry would not make it readable); one whose handling fails goes
 * back to the queue.
 */
export async function consumeMailEvents(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    const event = fromEmailService(message.body);
    if (!event) {
      log("warn", "[mail] events queue: not an Email Sending event", { messageId: message.id });
      message.ack();
      continue;
    }
    try {
      await handleMailEvent(env, event);
      message.ack();
    } catch (error) {
      log("error", "[mail] events queue: handling failed; retried", { event: event.kind, error });
      message.retry({ delaySeconds: 60 });
    }
  }
  // Events arrive with the mail, so this keeps the table at about 30 days without a job of its own.
  await pruneMailEvents(getDb(env)).catch((error: unknown) => log("error", "[mail] events pruning failed", { error }));
}

export interface MailEventCounts {
  delivered: number;
  bounced: number;
  complained: number;
}

/** The last 30 days' delivered, bounced and complained mail, for the dashboard (a range of the events' index). */
export async function mailEventCounts(db: Db, now = Date.now()): Promise<MailEventCounts> {
  const [rows] = await together(db, [
    db
      .select({ kind: mailEvents.kind, n: count() })
      .from(mailEvents)
      .where(
        and(
          gte(mailEvents.at, now - EVENT_WINDOW_MS),
          inArray(mailEvents.kind, ["delivered", "bounced", "complained"]),
        ),
      )
      .groupBy(mailEvents.kind),
  ]);
  const n = (kind: MailEventKind) => rows.find((r) => r.kind === kind)?.n ?? 0;
  return { delivered: n("delivered"), bounced: n("bounced"), complained: n("complained") };
}

/** Deletes the events older than the dashboard's window; returns how many. */
async function pruneMailEvents(db: Db, now = Date.now()): Promise<number> {
  const { meta } = await db.delete(mailEvents).where(lt(mailEvents.at, now - EVENT_WINDOW_MS));
  return meta.changes;
}
