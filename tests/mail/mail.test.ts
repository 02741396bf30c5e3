// The mail layer against the real local SMTP server (maildev, tests/worker/global-setup.ts) and
// the real local D1: what is queued arrives once, with both parts and its headers; an unreachable
// server loses nothing; a day of failures gives up; overlapping runs send once.
import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  env,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, inject, it, vi } from "vitest";
import worker from "../../worker/background";
import { smtpConfig } from "~/features/mail/config.server";
import type { MailMessage } from "~/features/mail/message";
import { ReplyReader } from "~/features/mail/smtp-session.server";
import {
  announceMail,
  deliverDueMail,
  failedDeliveries,
  GIVE_UP_AFTER_MS,
  KEEP_SENT_MS,
  LEASE_MS,
  pruneMail,
  queuedIds,
  queueMail,
  retryDelayMs,
} from "~/features/mail/outbox.server";
import { listMail, waitForMail } from "../fixtures/inbox";
import { sql } from "drizzle-orm";
import { batch as runBatch, getDb } from "~/utils/db.server";
import { expectDefined } from "../fixtures/expect-defined";

/** How many messages are waiting, sent and given up, read from the table. */
async function outboxCounts(db: D1Database): Promise<{ queued: number; sent: number; failed: number }> {
  const { results } = await db
    .prepare("SELECT status, count(*) AS n FROM mail_outbox GROUP BY status")
    .all<{ status: string; n: number }>();
  const n = (status: string) => results.find((r) => r.status === status)?.n ?? 0;
  return { queued: n("queued"), sent: n("sent"), failed: n("failed") };
}

const inbox = inject("inboxURL");
const down = { ...env, SMTP_PORT: inject("closedSmtpPort") };
const MINUTE = 60_000;

function message(overrides: Partial<MailMessage> = {}): MailMessage {
  return {
    kind: "newsletter-confirm",
    to: `reader-${crypto.randomUUID()}@afx.test`,
    subject: "Confirm your subscription",
    text: "Hello,\n\nConfirm here: https://afx.test/newsletter/confirm/abc\n\n.line starting with a dot\n",
    html: '<p>Hello,</p><p><a href="https://afx.test/newsletter/confirm/abc">Confirm subscription</a></p>',
    headers: {
      "List-Unsubscribe": "<https://afx.test/newsletter/unsubscribe/xyz>",
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
    ...overrides,
  };
}

async function row(to: string) {
  return env.DB.prepare("SELECT * FROM mail_outbox WHERE recipient = ?").bind(to).first<{
    status: string;
    attempts: number;
    next_attempt_at: number;
    last_error: string | null;
    text_body: string;
    html_body: string;
    sent_at: number | null;
    leased_until: number;
  }>();
}

beforeEach(async () => {
  await env.DB.prepare("DELETE FROM mail_outbox").run();
});
afterEach(() => vi.restoreAllMocks());

describe("mail delivery", () => {
  it("delivers a queued message once and intact: non-ASCII subject, text and HTML parts, Reply-To, List-Unsubscribe", async () => {
    const mail = message({
      subject: "Bestätigen Sie Ihr Abonnement — ça marche ✓",
      text: `${message().text}Grüße, l'équipe ✓\n`,
      html: `${message().html}<p>Grüße, l'équipe ✓</p>`,
      replyTo: "office@afx.test",
    });
    await runBatch(getDb(env), [queueMail(getDb(env), mail)]);
    expect(await deliverDueMail(env)).toEqual({ sent: 1, retried: 0, gaveUp: 0 });

    const got = await waitForMail(inbox, { to: mail.to, subject: mail.subject });
    expect(got.text.trim()).toBe(mail.text.trim()); // with its line that starts with a dot
    expect(got.html.trim()).toBe(mail.html);
    expect(got.headers["reply-to"]).toBe("office@afx.test");
    expect(got.headers["list-unsubscribe"]).toBe("<https://afx.test/newsletter/unsubscribe/xyz>");
    expect(got.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    expect(got.from).toEqual([{ address: "newsletter@example.com", name: "AFX Holding Group" }]);
    expect(got.envelope.to).toEqual([expect.objectContaining({ address: mail.to })]);

    // Sent: not sent again, and the body (its links) is no longer kept.
    expect(await deliverDueMail(env)).toEqual({ sent: 0, retried: 0, gaveUp: 0 });
    expect(await listMail(inbox, { to: mail.to })).toHaveLength(1);
    expect(await row(mail.to)).toMatchObject({
      status: "sent",
      attempts: 1,
      text_body: "",
      html_body: "",
      last_error: null,
    });
  });

  it("queues in the caller's batch: when the caller's own write fails, no e-mail is queued", async () => {
    const mail = message();
    await env.DB.prepare("INSERT INTO leads (email, first_name, source) VALUES (?, 'A', 'test')").bind(mail.to).run();
    const duplicate = sql`INSERT INTO leads (email, first_name, source) VALUES (${mail.to}, 'A', 'test')`;
    await expect(runBatch(getDb(env), [duplicate, queueMail(getDb(env), mail)])).rejects.toThrow(/UNIQUE/);
    expect(await row(mail.to)).toBeNull();
  });

  it("refuses messages that would let a line break add headers or SMTP commands", () => {
    expect(() => queueMail(getDb(env), message({ subject: "Hi\r\nBcc: victim@afx.test" }))).toThrow(/subject/);
    expect(() => queueMail(getDb(env), message({ to: "a@afx.test>\r\nRCPT TO:<b@afx.test" }))).toThrow(/to is not/);
    expect(() => queueMail(getDb(env), message({ headers: { "List-Unsubscribe": "<x>\r\nBcc: v@afx.test" } }))).toThrow(
      /printable/,
    );
    expect(() => queueMail(getDb(env), message({ headers: { Bcc: "v@afx.test" } }))).toThrow(/not allowed/);
    expect(() => queueMail(getDb(env), message({ html: " " }))).toThrow(/HTML part/);
  });

  it("with the server unreachable, records the error and retries with backoff; a later run delivers it once", async () => {
    const t0 = Date.now();
    const mail = message();
    await runBatch(getDb(env), [queueMail(getDb(env), mail, t0)]);

    expect(await deliverDueMail(down, t0)).toEqual({ sent: 0, retried: 1, gaveUp: 0 });
    const first = await row(mail.to);
    expect(first).toMatchObject({ status: "queued", attempts: 1, next_attempt_at: t0 + 30_000 });
    expect(first?.last_error).toBeTruthy();
    expect(first?.text_body).toBe(mail.text); // nothing lost

    // Not due yet: nothing is tried.
    expect(await deliverDueMail(down, t0 + 15_000)).toEqual({ sent: 0, retried: 0, gaveUp: 0 });
    // Second failure: the wait doubles.
    expect(await deliverDueMail(down, t0 + 30_000)).toEqual({ sent: 0, retried: 1, gaveUp: 0 });
    expect(await row(mail.to)).toMatchObject({ attempts: 2, next_attempt_at: t0 + 30_000 + MINUTE });
    expect(await listMail(inbox, { to: mail.to })).toHaveLength(0);

    // The server is back.
    expect(await deliverDueMail(env, t0 + 3 * MINUTE)).toEqual({ sent: 1, retried: 0, gaveUp: 0 });
    await waitForMail(inbox, { to: mail.to, subject: mail.subject });
    expect(await deliverDueMail(env, t0 + 10 * MINUTE)).toEqual({ sent: 0, retried: 0, gaveUp: 0 });
    expect(await listMail(inbox, { to: mail.to })).toHaveLength(1);
    expect(await row(mail.to)).toMatchObject({ status: "sent", attempts: 3, last_error: null });
  });

  it("waits 30 s, 1, 2, 4 … minutes between attempts, at most an hour", () => {
    expect([1, 2, 3, 4, 7, 8, 20].map((n) => retryDelayMs(n) / MINUTE)).toEqual([0.5, 1, 2, 4, 32, 60, 60]);
  });

  it("gives up after a day and lists the failure for the dashboard", async () => {
    const t0 = Date.now();
    const mail = message({ kind: "contact-notification" });
    await runBatch(getDb(env), [queueMail(getDb(env), mail, t0)]);
    expect(await deliverDueMail(down, t0 + GIVE_UP_AFTER_MS - MINUTE)).toEqual({ sent: 0, retried: 1, gaveUp: 0 });
    expect(await deliverDueMail(down, t0 + GIVE_UP_AFTER_MS)).toEqual({ sent: 0, retried: 0, gaveUp: 1 });
    expect(await row(mail.to)).toMatchObject({ status: "failed", attempts: 2, text_body: "" });
    // Given up: never tried again.
    expect(await deliverDueMail(env, t0 + 2 * GIVE_UP_AFTER_MS)).toEqual({ sent: 0, retried: 0, gaveUp: 0 });

    const failed = await failedDeliveries(getDb(env), 10);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      kind: "contact-notification",
      recipient: mail.to,
      subject: mail.subject,
      attempts: 2,
    });
    expect(expectDefined(failed[0]).lastError).toBeTruthy();
    expect(await outboxCounts(env.DB)).toEqual({ queued: 0, sent: 0, failed: 1 });
  });

  it("two overlapping runs send each message once", async () => {
    const mails = [message(), message(), message()];
    await runBatch(
      getDb(env),
      mails.map((m) => queueMail(getDb(env), m)),
    );
    const runs = await Promise.all([deliverDueMail(env), deliverDueMail(env)]);
    expect(runs[0].sent + runs[1].sent).toBe(3);
    expect(runs.every((r) => r.retried === 0 && r.gaveUp === 0)).toBe(true);
    for (const m of mails) await waitForMail(inbox, { to: m.to });
    expect(await deliverDueMail(env)).toEqual({ sent: 0, retried: 0, gaveUp: 0 });
    for (const m of mails) expect(await listMail(inbox, { to: m.to })).toHaveLength(1);
  });

  it("a message held by a run that was cut off waits at most one message's lease, not a batch's", async () => {
    expect(LEASE_MS).toBeLessThanOrEqual(30_000);
    const t0 = Date.now();
    const mail = message();
    await runBatch(getDb(env), [queueMail(getDb(env), mail, t0)]);
    // What a claim leaves behind when its run is killed before it can record anything.
    await env.DB.prepare("UPDATE mail_outbox SET attempts = 1, leased_until = ? WHERE recipient = ?")
      .bind(t0 + LEASE_MS, mail.to)
      .run();
    expect(await deliverDueMail(env, t0 + LEASE_MS - 1)).toEqual({ sent: 0, retried: 0, gaveUp: 0 });
    expect(await deliverDueMail(env, t0 + LEASE_MS)).toEqual({ sent: 1, retried: 0, gaveUp: 0 });
    await waitForMail(inbox, { to: mail.to });
  });

  it("with SMTP_SECURITY = starttls, refuses a server that offers no STARTTLS before sending anything", async () => {
    const mail = message();
    await runBatch(getDb(env), [queueMail(getDb(env), mail)]);
    expect(await deliverDueMail({ ...env, SMTP_SECURITY: "starttls" })).toEqual({ sent: 0, retried: 1, gaveUp: 0 });
    expect((await row(mail.to))?.last_error).toMatch(/did not offer STARTTLS/);
    expect(await listMail(inbox, { to: mail.to })).toHaveLength(0);
  });

  it("announceMail hands the stored message to the mail queue after the response; its consumer sends it", async () => {
    const mail = message();
    const [queued] = await runBatch(getDb(env), [queueMail(getDb(env), mail)]);
    const ids = queuedIds(queued);
    expect(ids).toEqual([expect.any(Number)]);
    const ctx = createExecutionContext();
    announceMail(env, ctx, ids);
    await waitOnExecutionContext(ctx);
    // The queue's consumer (worker/background.ts) runs in the pool as under wrangler dev.
    await waitForMail(inbox, { to: mail.to });
    await expect.poll(async () => (await row(mail.to))?.status, { timeout: 10_000 }).toBe("sent");
    expect(await listMail(inbox, { to: mail.to })).toHaveLength(1);
  });

  it("the queue's consumer acknowledges what it sent or what is gone, and hands back failures and held messages with their delay", async () => {
    const [ok, failing, held] = [message(), message(), message()];
    const t0 = Date.now();
    const [a, b, c] = await runBatch(
      getDb(env),
      [ok, failing, held].map((m) => queueMail(getDb(env), m, t0)),
    );
    const id = (r: D1Result | undefined) => queuedIds(r)[0]!;
    await env.DB.prepare("UPDATE mail_outbox SET leased_until = ? WHERE id = ?")
      .bind(t0 + 20_000, id(c))
      .run();
    const job = (mailId: number, n: number) => ({
      id: `m${n}`,
      timestamp: new Date(),
      attempts: 1,
      body: { id: mailId },
    });

    const batch = createMessageBatch("afx-mail", [job(id(a), 1), job(id(c), 3), job(987654321, 4)]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks.sort()).toEqual(["m1", "m4"]);
    // Held by another run: back on the queue (until its lease ends), not sent twice.
    expect(result.retryMessages.map((m) => m.msgId)).toEqual(["m3"]);
    expect(await row(held.to)).toMatchObject({ status: "queued", attempts: 0 });
    await waitForMail(inbox, { to: ok.to });

    // The server down: the message goes back to the queue after the retry delay, nothing lost.
    const downBatch = createMessageBatch("afx-mail", [job(id(b), 2)]);
    const downCtx = createExecutionContext();
    await worker.queue(downBatch, down);
    expect((await getQueueResult(downBatch, downCtx)).retryMessages.map((m) => m.msgId)).toEqual(["m2"]);
    const after = (await row(failing.to))!;
    expect(after).toMatchObject({ status: "queued", attempts: 1, leased_until: 0, last_error: expect.any(String) });
    expect(after.next_attempt_at).toBeGreaterThanOrEqual(t0 + 30_000);

    // The dead-letter queue's messages are only acknowledged: the Cron Trigger keeps the row going.
    const dead = createMessageBatch("afx-mail-dlq", [job(id(b), 5)]);
    const deadCtx = createExecutionContext();
    vi.spyOn(console, "warn").mockImplementation(() => {});
    await worker.queue(dead, env);
    expect((await getQueueResult(dead, deadCtx)).ackAll).toBe(true);
    expect(await row(failing.to)).toMatchObject({ status: "queued" });
  });

  it("the real SMTP server stopped during a burst of 200 and started again: every e-mail arrives exactly once", async () => {
    const control = (action: "stop" | "start") =>
      fetch(`${inject("outageControlURL")}/${action}`, { method: "POST" }).then((r) => expect(r.status).toBe(200));
    const outageInbox = inject("outageInboxURL");
    const smtp = { ...env, SMTP_PORT: inject("outageSmtpPort") };
    const mails = Array.from({ length: 200 }, () => message({ kind: "contact-notification" }));
    const ids = (
      await runBatch(
        getDb(env),
        mails.map((m) => queueMail(getDb(env), m)),
      )
    ).flatMap(queuedIds);
    expect(ids).toHaveLength(200);
    const deliver = async () => {
      const batch = createMessageBatch(
        "afx-mail",
        ids.map((id, i) => ({ id: `m${i}`, timestamp: new Date(), attempts: 1, body: { id } })),
      );
      await worker.queue(batch, smtp);
      return getQueueResult(batch, createExecutionContext());
    };
    vi.spyOn(console, "warn").mockImplementation(() => {});

    await control("stop");
    try {
      // Down: every message goes back to the queue with its delay; none is lost or given up.
      const down = await deliver();
      expect(down.retryMessages).toHaveLength(200);
      const { results } = await env.DB.prepare(
        `SELECT status, attempts, leased_until, last_error IS NOT NULL AS failed FROM mail_outbox WHERE id IN (${ids.join(",")}) GROUP BY 1, 2, 3, 4`,
      ).all();
      expect(results).toEqual([{ status: "queued", attempts: 1, leased_until: 0, failed: 1 }]);
    } finally {
      await control("start");
    }
    // Back: the queue's retries deliver each once; a redelivery after that sends nothing again.
    expect((await deliver()).explicitAcks).toHaveLength(200);
    expect((await deliver()).explicitAcks).toHaveLength(200);
    const received = (
      (await (await fetch(`${outageInbox}/email`)).json()) as { envelope: { to: { address: string }[] } }[]
    ).flatMap((m) => m.envelope.to.map((t) => t.address));
    expect(received.sort()).toEqual(mails.map((m) => m.to).sort());
    expect(await outboxCounts(env.DB)).toMatchObject({ queued: 0, sent: 200 });
    // 400 deliveries through a real SMTP server: 1–3 s alone, more on a loaded machine.
  }, 30_000);

  it("the worker's scheduled handler (the Cron Trigger) delivers what is due", async () => {
    // Not a confirmation: the same run deletes queued confirmations whose address is not pending.
    // Due 3 minutes ago: the Cron Trigger is the safety net for what the queue did not send.
    const mail = message({ kind: "contact-notification" });
    await runBatch(getDb(env), [queueMail(getDb(env), mail, Date.now() - 3 * MINUTE)]);
    await worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: "* * * * *" }), env);
    expect((await row(mail.to))?.status).toBe("sent");
    await waitForMail(inbox, { to: mail.to });
  });

  it("a production deploy that refuses to serve runs no scheduled job: nothing is claimed", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const mail = message();
    await runBatch(getDb(env), [queueMail(getDb(env), mail)]);
    await worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: "* * * * *" }), {
      ...env,
      ENVIRONMENT: "production",
    });
    expect(await row(mail.to)).toMatchObject({ status: "queued", attempts: 0 });
    expect(errors.mock.calls.flat().join(" ")).toMatch(/scheduled jobs skipped/);
  });

  it("logs neither addresses nor bodies", async () => {
    const lines: string[] = [];
    for (const level of ["log", "warn", "error"] as const) {
      vi.spyOn(console, level).mockImplementation((...args) => void lines.push(JSON.stringify(args)));
    }
    const ok = message();
    const failing = message();
    await runBatch(getDb(env), [queueMail(getDb(env), ok)]);
    await deliverDueMail(env);
    await runBatch(getDb(env), [queueMail(getDb(env), failing)]);
    await deliverDueMail(down);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    const all = lines.join("\n");
    expect(all).not.toContain(ok.to);
    expect(all).not.toContain(failing.to);
    expect(all).not.toContain("newsletter/confirm/abc");
    expect(all).toContain(`${ok.to[0]}***@afx.test`);
  });

  it("deletes the records of messages sent more than 30 days ago", async () => {
    const t0 = Date.now();
    const mail = message();
    await runBatch(getDb(env), [queueMail(getDb(env), mail, t0)]);
    await deliverDueMail(env, t0);
    expect(await pruneMail(getDb(env), t0 + KEEP_SENT_MS - 1)).toBe(0);
    expect(await pruneMail(getDb(env), t0 + KEEP_SENT_MS + 1)).toBe(1);
    expect(await row(mail.to)).toBeNull();
  });
});

describe("SMTP replies", () => {
  it("are read whole: multi-line, split across reads anywhere, one at a time", async () => {
    const chunks = [
      "220 mail.afx.test ESMTP\r\n250-mail.afx.test\r",
      "\n250-AUTH PL",
      "AIN LOGIN\r\n250 STARTTLS\r\n",
      "354 go ahead\r\n",
    ];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(next));
      },
    });
    const replies = new ReplyReader(stream.getReader());
    expect(await replies.read()).toEqual({ code: 220, lines: ["220 mail.afx.test ESMTP"] });
    expect(replies.hasUnread).toBe(true); // the rest of that read: STARTTLS refuses to go on over it
    expect(await replies.read()).toEqual({
      code: 250,
      lines: ["250-mail.afx.test", "250-AUTH PLAIN LOGIN", "250 STARTTLS"],
    });
    expect(await replies.read()).toEqual({ code: 354, lines: ["354 go ahead"] });
    await expect(replies.read()).rejects.toThrow(/closed the connection/);
  });
});

describe("SMTP configuration", () => {
  it("reads the local defaults and names the variable that is wrong", () => {
    expect(smtpConfig(env)).toMatchObject({
      host: "127.0.0.1",
      security: "off",
      from: { name: "AFX Holding Group", email: "newsletter@example.com" },
    });
    expect(smtpConfig(env).credentials).toBeUndefined();
    expect(smtpConfig({ ...env, SMTP_USER: "u", SMTP_PASSWORD: "p" }).credentials).toEqual({
      username: "u",
      password: "p",
    });
    expect(() => smtpConfig({ ...env, SMTP_PORT: "smtp" })).toThrow(/SMTP_PORT/);
    expect(() => smtpConfig({ ...env, SMTP_SECURITY: "ssl" })).toThrow(/SMTP_SECURITY/);
    expect(() => smtpConfig({ ...env, MAIL_FROM: 'Bad "Name" <x@afx.test>' })).toThrow(/MAIL_FROM/);
  });

  it("a configuration that cannot be used claims nothing: the messages wait", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const mail = message();
    await runBatch(getDb(env), [queueMail(getDb(env), mail)]);
    expect(await deliverDueMail({ ...env, SMTP_PORT: "" })).toEqual({ sent: 0, retried: 0, gaveUp: 0 });
    expect(await row(mail.to)).toMatchObject({ status: "queued", attempts: 0 });
  });
});
