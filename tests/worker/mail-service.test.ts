// MAIL_TRANSPORT = "email-service": the outbox's messages through the EMAIL binding (a recording
// fake in the workers pool that answers as the binding does: tests/worker/fixtures/email-fake.mjs),
// and the sending domain's delivery events through the events queue's consumer, against the real
// local D1: a hard bounce, a complaint, a rejection, each as the Email Service publishes it.
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import worker from "../../worker/server";
import { mailTransport } from "~/features/mail/config.server";
import { mailEventCounts } from "~/features/mail/events.server";
import type { MailMessage } from "~/features/mail/message";
import { deliverDueMail, deliverQueued, LEASE_MS, queueMail } from "~/features/mail/outbox.server";
import { emailServiceTransport } from "~/features/mail/email-service.server";
import { SEND_TIMEOUT_MS } from "~/features/mail/transport.server";
import { listLeads } from "~/features/leads/lead-list.server";
import { isSuppressed } from "~/features/privacy/suppression.server";
import { configProblems } from "../../worker/production-config";
import { GOOD_PRODUCTION_VARS } from "../fixtures/production-vars";
import { get, signIn } from "./auth-helpers";
import { insertLeads, postJson, signup } from "./leads-helpers";
import { batch as runBatch, getDb } from "~/utils/db.server";

interface Received {
  from: unknown;
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
  headers: Record<string, string>;
  messageId: string;
}
const fake = env.EMAIL as unknown as { sent(): Promise<Received[]> };
const service = { ...env, MAIL_TRANSPORT: "email-service" } as Env;

function message(overrides: Partial<MailMessage> = {}): MailMessage {
  return {
    kind: "newsletter-confirm",
    to: `reader-${crypto.randomUUID()}@afx.test`,
    subject: "Confirm your subscription",
    text: "Hello,\n\nConfirm here: https://afx.test/newsletter/confirm/abc\n",
    html: '<p>Hello,</p><p><a href="https://afx.test/newsletter/confirm/abc">Confirm subscription</a></p>',
    headers: {
      "List-Unsubscribe": "<https://afx.test/newsletter/unsubscribe/xyz>",
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
    ...overrides,
  };
}

const row = (to: string) =>
  env.DB.prepare(
    "SELECT status, attempts, last_error, message_id, next_attempt_at FROM mail_outbox WHERE recipient = ?",
  )
    .bind(to)
    .first<{
      status: string;
      attempts: number;
      last_error: string | null;
      message_id: string | null;
      next_attempt_at: number;
    }>();
const leadStatus = async (email: string) =>
  (await env.DB.prepare("SELECT status FROM leads WHERE email = ?").bind(email).first<{ status: string }>())?.status;

/** An Email Service event as its queue delivers it (the documented payload). */
function event(kind: string, recipient: string, payload: Record<string, unknown> = {}) {
  return {
    type: `cf.email.sending.message.${kind}`,
    source: { type: "email.sending", zoneId: "023e105f4ecef8ad9ca31a8372d0c353", domain: "afxholdinggroup.com" },
    payload: {
      eventId: crypto.randomUUID(),
      messageId: `msg-${crypto.randomUUID()}`,
      sender: "newsletter@afxholdinggroup.com",
      recipient,
      terminal: true,
      ...payload,
    },
    metadata: {
      accountId: "f9f79265f388666de8122cfb508d7776",
      eventSubscriptionId: "1830c4bb",
      eventSchemaVersion: 1,
      eventTimestamp: new Date().toISOString(),
    },
  };
}

/** Hands `bodies` to the worker's queue handler as a batch of the events queue; returns its result. */
async function consume(...bodies: unknown[]) {
  const batch = createMessageBatch(
    "afx-mail-events",
    bodies.map((body, i) => ({ id: `e${i}`, timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, env);
  return getQueueResult(batch, ctx);
}

/** Sends one message through the fake binding; returns what it received and the outbox row. */
async function sendOne(overrides: Partial<MailMessage> = {}) {
  const mail = message(overrides);
  await runBatch(getDb(env), [queueMail(getDb(env), mail)]);
  const result = await deliverDueMail(service);
  const got = (await fake.sent()).find((m) => m.to === mail.to);
  return { mail, result, got, row: await row(mail.to) };
}

beforeEach(async () => {
  await env.DB.batch([
    env.DB.prepare("DELETE FROM mail_outbox"),
    env.DB.prepare("DELETE FROM mail_events"),
    env.DB.prepare("DELETE FROM leads"),
    env.DB.prepare("DELETE FROM suppressed_emails"),
  ]);
});

describe("the Email Service transport", () => {
  it("sends a queued message through the EMAIL binding with the sender, both parts, Reply-To and the unsubscribe headers", async () => {
    const { mail, result, got, row: sent } = await sendOne({ replyTo: "office@afx.test" });
    expect(result).toEqual({ sent: 1, retried: 0, gaveUp: 0 });
    expect(got).toMatchObject({
      from: { email: "newsletter@example.com", name: "AFX Holding Group" },
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      replyTo: "office@afx.test",
    });
    // Exactly ours: Message-ID, Date and DKIM are the platform's own (it refuses them in `headers`).
    expect(got!.headers).toEqual({
      "List-Unsubscribe": "<https://afx.test/newsletter/unsubscribe/xyz>",
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    console.log(
      "[binding received]",
      JSON.stringify({ from: got!.from, replyTo: got!.replyTo, headers: got!.headers, messageId: got!.messageId }),
    );
    // The id the binding answered is kept: the delivery events name it.
    expect(sent).toMatchObject({ status: "sent", attempts: 1, message_id: got!.messageId });
  });

  it("gives a suppressed recipient up at once (E_RECIPIENT_SUPPRESSED), with no day of retries", async () => {
    const { result, got, row: given } = await sendOne({ to: `suppressed-${crypto.randomUUID()}@afx.test` });
    expect(result).toEqual({ sent: 0, retried: 0, gaveUp: 1 });
    expect(got).toBeUndefined();
    expect(given).toMatchObject({
      status: "failed",
      attempts: 1,
      last_error: "E_RECIPIENT_SUPPRESSED: Recipient is suppressed",
      message_id: null,
    });
  });

  it("keeps mail past the day's quota in the outbox and tries again later (E_DAILY_LIMIT_EXCEEDED)", async () => {
    const before = Date.now();
    const { result, row: waiting } = await sendOne({ to: `throttled-${crypto.randomUUID()}@afx.test` });
    expect(result).toEqual({ sent: 0, retried: 1, gaveUp: 0 });
    expect(waiting).toMatchObject({
      status: "queued",
      attempts: 1,
      last_error: expect.stringMatching(/^E_DAILY_LIMIT_EXCEEDED/),
    });
    expect(waiting!.next_attempt_at).toBeGreaterThanOrEqual(before + 30_000);
  });

  it("goes through the mail queue's consumer the same way", async () => {
    const mail = message();
    const [inserted] = await runBatch(getDb(env), [queueMail(getDb(env), mail)]);
    const id = (inserted!.results[0] as { id: number }).id;
    const batch = createMessageBatch("afx-mail", [{ id: "m1", timestamp: new Date(), attempts: 1, body: { id } }]);
    const ctx = createExecutionContext();
    await deliverQueued(batch.messages, service);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(["m1"]);
    expect((await fake.sent()).some((m) => m.to === mail.to)).toBe(true);
  });

  it("gives a stalled binding a deadline, as SMTP has, well within the claim's lease: a retry, not a hang", async () => {
    expect(SEND_TIMEOUT_MS * 2).toBeLessThanOrEqual(LEASE_MS);
    const stalled = { send: () => new Promise<never>(() => {}) } as unknown as SendEmail;
    const started = Date.now();
    const outcome = await emailServiceTransport(stalled, { email: "newsletter@afx.test" }, 50).send(message());
    expect(outcome).toEqual({ is: "retry", reason: "the Email Service did not answer within 0.05 s" });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("is chosen by MAIL_TRANSPORT: email-service needs no SMTP variable, and refuses to work without its binding", () => {
    const { SMTP_HOST: _h, SMTP_PORT: _p, ...noSmtp } = service;
    expect(mailTransport(noSmtp as Env).name).toBe("email-service");
    expect(mailTransport(env).name).toBe("smtp");
    expect(() => mailTransport({ ...service, EMAIL: undefined } as unknown as Env)).toThrow(/no EMAIL binding/);
    expect(() => mailTransport({ ...env, MAIL_TRANSPORT: "ses" })).toThrow(
      /MAIL_TRANSPORT is not "email-service" or "smtp"/,
    );
    // Production with the Email Service: no SMTP rule applies; without its binding, mail waits.
    const production = { ...noSmtp, ...GOOD_PRODUCTION_VARS, MAIL_TRANSPORT: "email-service" } as Env;
    expect(configProblems(production)).toEqual([]);
    expect(configProblems({ ...production, EMAIL: undefined } as unknown as Env)).toEqual([
      expect.stringMatching(/^MAIL_TRANSPORT is "email-service" and the worker has no EMAIL binding/),
    ]);
  });
});

describe("delivery events (the events queue)", () => {
  it("a hard bounce marks the lead undeliverable, gives its message up, and the workbench filters it", async () => {
    const { mail, row: sent } = await sendOne();
    await insertLeads([{ email: mail.to }]);
    const bounce = event("bounced", mail.to, {
      messageId: sent!.message_id,
      delivery: { status: "bounced", smtpStatusCode: "550", smtpResponse: "550 5.1.1 User unknown" },
      bounce: { type: "hard", classification: "permanent_failure", reason: "550 5.1.1 User unknown" },
    });
    expect((await consume(bounce)).explicitAcks).toEqual(["e0"]);
    expect(await leadStatus(mail.to)).toBe("undeliverable");
    expect(await row(mail.to)).toMatchObject({ status: "failed", last_error: "bounced: 550 5.1.1 User unknown" });
    const listed = await listLeads(getDb(env), { limit: 25, filters: { status: "undeliverable" } });
    expect(listed.leads.map((l) => l.email)).toEqual([mail.to]);
    // Redelivered by the queue: counted once.
    await consume(bounce);
    expect(await mailEventCounts(getDb(env))).toEqual({ delivered: 0, bounced: 1, complained: 0 });
  });

  it("a soft bounce (the service's retries exhausted) changes neither the lead nor the message; deferred is counted only", async () => {
    const { mail, row: sent } = await sendOne();
    await insertLeads([{ email: mail.to }]);
    await consume(
      event("deferred", mail.to, {
        messageId: sent!.message_id,
        terminal: false,
        bounce: { type: "soft", reason: "451 4.2.0 Temporary mailbox error" },
      }),
      event("bounced", mail.to, {
        messageId: sent!.message_id,
        bounce: { type: "soft", classification: "temporary_failure", reason: "452 4.2.2 Mailbox full" },
      }),
    );
    expect(await leadStatus(mail.to)).toBe("confirmed");
    expect(await row(mail.to)).toMatchObject({ status: "sent" });
    expect(await mailEventCounts(getDb(env))).toEqual({ delivered: 0, bounced: 1, complained: 0 });
  });

  it("a complaint unsubscribes the lead and suppresses the address (reason complaint)", async () => {
    const { mail, row: sent } = await sendOne();
    await insertLeads([{ email: mail.to }]);
    await consume(
      event("complained", mail.to, {
        messageId: sent!.message_id,
        delivery: { status: "complained" },
        complaint: { type: "abuse" },
      }),
    );
    expect(await leadStatus(mail.to)).toBe("unsubscribed");
    expect(await isSuppressed(env, mail.to)).toBe(true);
    expect(
      (await env.DB.prepare("SELECT reason FROM suppressed_emails").all<{ reason: string }>()).results.map(
        (r) => r.reason,
      ),
    ).toContain("complaint");
    expect(await mailEventCounts(getDb(env))).toEqual({ delivered: 0, bounced: 0, complained: 1 });
  });

  it("investor alert mail is list mail: a complaint unsubscribes both topics and suppresses, a hard bounce marks undeliverable", async () => {
    const topicRows = (email: string) =>
      env.DB.prepare("SELECT topic, status FROM leads WHERE email = ? ORDER BY topic").bind(email).all();
    const alertLead = async (email: string) => {
      await insertLeads([{ email }]);
      await env.DB.prepare(
        "INSERT INTO leads (email, first_name, source, subscribed_at, status, topic) VALUES (?, 'Ivy', 'settings', ?, 'confirmed', 'alerts')",
      )
        .bind(email, Date.now() - 1000)
        .run();
    };
    // Queued to a confirmed alerts subscriber (the sender reads the lead's status before sending).
    const complainerTo = `investor-${crypto.randomUUID()}@afx.test`;
    await alertLead(complainerTo);
    const complainer = await sendOne({ kind: "alert-news-42", to: complainerTo });
    await consume(event("complained", complainer.mail.to, { messageId: complainer.row!.message_id }));
    expect((await topicRows(complainer.mail.to)).results).toEqual([
      { topic: "alerts", status: "unsubscribed" },
      { topic: "newsletter", status: "unsubscribed" },
    ]);
    expect(await isSuppressed(env, complainer.mail.to)).toBe(true);

    const bouncedTo = `investor-${crypto.randomUUID()}@afx.test`;
    await alertLead(bouncedTo);
    const bounced = await sendOne({ kind: "alert-document-abc", to: bouncedTo });
    await consume(
      event("bounced", bounced.mail.to, {
        messageId: bounced.row!.message_id,
        bounce: { type: "hard", classification: "permanent_failure", reason: "550 5.1.1 User unknown" },
      }),
    );
    expect((await topicRows(bounced.mail.to)).results).toEqual([
      { topic: "alerts", status: "undeliverable" },
      { topic: "newsletter", status: "undeliverable" },
    ]);
    expect(await row(bounced.mail.to)).toMatchObject({ status: "failed" });
  });

  it("a rejection or a failure gives the message up; delivered is counted", async () => {
    const rejected = await sendOne();
    const failed = await sendOne();
    const delivered = await sendOne();
    await consume(
      event("rejected", rejected.mail.to, {
        messageId: rejected.row!.message_id,
        rejection: { reason: "suppressed", party: "recipient", detail: "Recipient is suppressed" },
      }),
      event("failed", failed.mail.to, { messageId: failed.row!.message_id, failure: { reason: "delivery_failed" } }),
      event("delivered", delivered.mail.to, {
        messageId: delivered.row!.message_id,
        delivery: { status: "delivered", smtpResponse: "250 2.0.0 OK" },
      }),
    );
    expect(await row(rejected.mail.to)).toMatchObject({
      status: "failed",
      last_error: "rejected: suppressed: Recipient is suppressed",
    });
    expect(await row(failed.mail.to)).toMatchObject({ status: "failed", last_error: "failed: delivery_failed" });
    expect(await row(delivered.mail.to)).toMatchObject({ status: "sent" });
    expect(await mailEventCounts(getDb(env))).toEqual({ delivered: 1, bounced: 0, complained: 0 });
  });

  it("acknowledges what is not an Email Sending event, and counts only the last 30 days", async () => {
    const result = await consume({ type: "cf.kv.namespace.created" }, "garbage");
    expect(result.explicitAcks.sort()).toEqual(["e0", "e1"]);
    await env.DB.prepare("INSERT INTO mail_events (event_id, kind, at) VALUES ('old', 'delivered', ?)")
      .bind(Date.now() - 31 * 86_400_000)
      .run();
    expect(await mailEventCounts(getDb(env))).toEqual({ delivered: 0, bounced: 0, complained: 0 });
  });

  it("the dashboard's mail panel shows the last 30 days' delivered, bounced and complained mail", async () => {
    const { mail } = await sendOne();
    await consume(
      event("delivered", mail.to),
      event("delivered", mail.to),
      event("bounced", "x@afx.test", { bounce: { type: "hard" } }),
      event("complained", "y@afx.test"),
    );
    const { jar } = await signIn("admin@example.com", { name: "Ada Admin" });
    const html = await (await get("/admin/leads", jar)).text();
    expect(html).toMatch(/data-testid="mail-delivered">2</);
    expect(html).toMatch(/data-testid="mail-bounced">1</);
    expect(html).toMatch(/data-testid="mail-complained">1</);
  });
});

// Issue 43: an event changes a lead only when its messageId is an outbox row of ours to that
// recipient (a newsletter e-mail) and no signup came after it; its effects run only when this
// handling inserted its row. Each case below changed the lead before.
describe("delivery events bind to our own mail", () => {
  const hardBounce = (to: string, messageId: string | null, extra: Record<string, unknown> = {}) =>
    event("bounced", to, { messageId, bounce: { type: "hard", reason: "550 5.1.1 User unknown" }, ...extra });
  const reader = () => `reader-${crypto.randomUUID().slice(0, 8)}@example.com`;

  it("another sender's bounce or complaint (a message id not ours) is counted and changes nothing", async () => {
    const to = reader();
    await sendOne({ to });
    await insertLeads([{ email: to }]);
    // The subscription covers the whole sending domain: billing@'s mail to our reader.
    await consume(
      hardBounce(to, `billing-${crypto.randomUUID()}`, { sender: "billing@afxholdinggroup.com" }),
      event("complained", to, { messageId: `tool-${crypto.randomUUID()}`, sender: "colleague@afxholdinggroup.com" }),
    );
    expect(await leadStatus(to)).toBe("confirmed");
    expect(await isSuppressed(env, to)).toBe(false);
    expect(await row(to)).toMatchObject({ status: "sent" });
    expect(await mailEventCounts(getDb(env))).toEqual({ delivered: 0, bounced: 1, complained: 1 });
  });

  it("an unknown or missing message id, or our message to someone else, changes nothing", async () => {
    const to = reader();
    const other = await sendOne({ to: reader() });
    await insertLeads([{ email: to }]);
    await consume(
      hardBounce(to, null),
      hardBounce(to, `msg-${crypto.randomUUID()}`),
      hardBounce(to, other.row!.message_id),
      event("complained", to, { messageId: other.row!.message_id }),
    );
    expect(await leadStatus(to)).toBe("confirmed");
    expect(await isSuppressed(env, to)).toBe(false);
    expect(await row(other.mail.to)).toMatchObject({ status: "sent" });
  });

  it("a redelivered hard bounce after the owner signed up anew leaves the new signup pending", async () => {
    const to = reader();
    const { row: sent } = await sendOne({ to });
    await insertLeads([{ email: to, ago: 60_000 }]);
    const bounce = hardBounce(to, sent!.message_id);
    await consume(bounce);
    expect(await leadStatus(to)).toBe("undeliverable");
    // The owner fixes the mailbox and signs up again: the lead starts over as pending.
    expect((await postJson(signup({ email: to }))).status).toBe(201);
    expect(await leadStatus(to)).toBe("pending");
    // The queue delivers the same event again, then a late copy under a new id: neither acts.
    await consume(bounce, { ...bounce, payload: { ...bounce.payload, eventId: crypto.randomUUID() } });
    expect(await leadStatus(to)).toBe("pending");
  });

  it("an event older than the 30 days its dedup lasts is ignored whole", async () => {
    const to = reader();
    const { row: sent } = await sendOne({ to });
    await insertLeads([{ email: to, ago: 40 * 86_400_000 }]);
    const old = hardBounce(to, sent!.message_id);
    old.metadata.eventTimestamp = new Date(Date.now() - 31 * 86_400_000).toISOString();
    await consume(old, { ...event("complained", to, { messageId: sent!.message_id }), metadata: old.metadata });
    expect(await leadStatus(to)).toBe("confirmed");
    expect(await isSuppressed(env, to)).toBe(false);
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM mail_events").first<{ n: number }>())!.n).toBe(0);
  });

  it("a complaint about operational mail (a contact notification) suppresses and unsubscribes nothing", async () => {
    const to = reader();
    const { row: sent } = await sendOne({ to, kind: "contact-notification", headers: {} });
    await insertLeads([{ email: to }]);
    await consume(event("complained", to, { messageId: sent!.message_id }));
    expect(await leadStatus(to)).toBe("confirmed");
    expect(await isSuppressed(env, to)).toBe(false);
    expect(await mailEventCounts(getDb(env))).toEqual({ delivered: 0, bounced: 0, complained: 1 });
  });
});
