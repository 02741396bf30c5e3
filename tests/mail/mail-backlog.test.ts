// Exactly once while a backlog drains (issue 33, docs/decisions/060): against a real SMTP server
// that answers each message late (tests/worker/global-setup.ts), a late Cron run and the queue's
// consumer draining the same backlog deliver every message once; a run whose claim was taken
// over writes no result over the other's; a permanent refusal gives up at once.
import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  env,
  getQueueResult,
} from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, inject, it, vi } from "vitest";
import worker from "../../worker/background";
import type { MailMessage } from "~/features/mail/message";
import { deliverDueMail, LEASE_MS, queuedIds, queueMail } from "~/features/mail/outbox.server";
import { batch as runBatch, getDb } from "~/utils/db.server";

const slow = { ...env, SMTP_PORT: inject("slowSmtpPort") };
const MINUTE = 60_000;

// A notification: the Cron run's newsletter sweep deletes queued confirmations that have no pending lead.
function message(prefix = "backlog"): MailMessage {
  return {
    kind: "contact-notification",
    to: `${prefix}-${crypto.randomUUID()}@afx.test`,
    subject: "Confirm your subscription",
    text: "Hello",
    html: "<p>Hello</p>",
  };
}

/** Every delivery the slow server accepted for `to`. */
async function deliveries(to: string): Promise<number> {
  const all = (await (await fetch(inject("slowSmtpReceivedURL"))).json()) as string[];
  return all.filter((address) => address === to).length;
}

const row = (id: number) =>
  env.DB.prepare("SELECT status, attempts, leased_until, last_error FROM mail_outbox WHERE id = ?")
    .bind(id)
    .first<{ status: string; attempts: number; leased_until: number; last_error: string | null }>();

async function queue(messages: MailMessage[], at = Date.now()): Promise<number[]> {
  const results = await runBatch(
    getDb(env),
    messages.map((m) => queueMail(getDb(env), m, at)),
  );
  return results.flatMap((r) => queuedIds(r));
}

const cronRun = (scheduledTime: number) =>
  worker.scheduled(createScheduledController({ scheduledTime: new Date(scheduledTime), cron: "* * * * *" }), slow);

beforeEach(async () => {
  await env.DB.prepare("DELETE FROM mail_outbox").run();
});
afterEach(() => vi.restoreAllMocks());

describe("exactly once while a backlog drains", () => {
  it("a Cron run 40 s past its scheduledTime and the queue's consumer, on one backlog and a server slower than that run's old leases, deliver each message once", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const mails = [message(), message(), message()];
    // Due three minutes ago: the safety net's to send, and the queue's (a redelivery) as well.
    const ids = await queue(mails, Date.now() - 3 * MINUTE);
    // A run whose scheduledTime is 40 s old: one that started late, or is 40 s into its loop.
    const cron = cronRun(Date.now() - 40_000);
    // The consumer comes while the run's sends are still waiting for the server's answer.
    await vi.waitUntil(async () => (await row(ids[0]!))?.attempts === 1, { timeout: 5_000, interval: 50 });
    const batch = createMessageBatch(
      "afx-mail",
      ids.map((id, i) => ({ id: `m${i}`, timestamp: new Date(), attempts: 1, body: { id } })),
    );
    const consumer = worker.queue(batch, slow);
    await Promise.all([cron, consumer]);

    // The consumer found every message held and handed it back to the queue, to come back after the lease.
    const result = await getQueueResult(batch, createExecutionContext());
    expect(result.retryMessages.map((m) => m.msgId).sort()).toEqual(["m0", "m1", "m2"]);
    for (const id of ids) expect(await row(id)).toMatchObject({ status: "sent", attempts: 1 });
    for (const mail of mails) expect(await deliveries(mail.to)).toBe(1);
  }, 20_000);

  it("writes 'sent' only while its claim holds: a run whose message was claimed again meanwhile reports it and leaves the row to the other", async () => {
    const warnings: string[] = [];
    vi.spyOn(console, "warn").mockImplementation((...args) => void warnings.push(args.map(String).join(" ")));
    vi.spyOn(console, "log").mockImplementation(() => {});
    const mail = message();
    const [id] = await queue([mail]);
    const run = deliverDueMail(slow);
    await vi.waitUntil(async () => (await row(id!))?.attempts === 1, { timeout: 5_000, interval: 50 });
    // Another run's claim, as after an expired lease: one more attempt and a lease of its own.
    const theirs = Date.now() + LEASE_MS;
    await env.DB.prepare("UPDATE mail_outbox SET attempts = attempts + 1, leased_until = ? WHERE id = ?")
      .bind(theirs, id)
      .run();

    expect(await run).toEqual({ sent: 0, retried: 0, gaveUp: 0 });
    expect(await row(id!)).toMatchObject({ status: "queued", attempts: 2, leased_until: theirs });
    expect(warnings.join("\n")).toMatch(/lease lost/);
    expect(await deliveries(mail.to)).toBe(1);
  }, 20_000);

  it("a permanent 5xx refusal of the recipient gives up at once, logged; a 4xx is retried as before", async () => {
    const errors: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args) => void errors.push(args.map(String).join(" ")));
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const refused = message("refused");
    const busy = message("busy");
    const [refusedId, busyId] = await queue([refused, busy]);

    expect(await deliverDueMail(slow)).toEqual({ sent: 0, retried: 1, gaveUp: 1 });
    expect(await row(refusedId!)).toMatchObject({
      status: "failed",
      attempts: 1,
      last_error: expect.stringMatching(/RCPT TO refused: 550/),
    });
    expect(errors.join("\n")).toMatch(/\[mail\] gave up/);
    expect(await row(busyId!)).toMatchObject({
      status: "queued",
      attempts: 1,
      last_error: expect.stringMatching(/451/),
    });

    // Through the queue's consumer too: acknowledged, not handed back for a day of retries.
    const [again] = await queue([message("refused")]);
    const batch = createMessageBatch("afx-mail", [
      { id: "m1", timestamp: new Date(), attempts: 1, body: { id: again } },
    ]);
    await worker.queue(batch, slow);
    expect(await getQueueResult(batch, createExecutionContext())).toMatchObject({
      ackAll: false,
      retryMessages: [],
      explicitAcks: ["m1"],
    });
    expect(await row(again!)).toMatchObject({ status: "failed", attempts: 1 });
  }, 20_000);
});
