// What an operator reads when SMTP fails (issue 34 item 4, docs/decisions/015-mail-delivery.md):
// against real SMTP servers set up the ways settings go wrong (tests/worker/global-setup.ts), each
// failure names its likely cause in last_error (the dashboard) and the log, the session ends with
// QUIT where it still can, and the server's accepting reply is logged.
import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, inject, it, vi } from "vitest";
import { smtpConfig } from "~/features/mail/config.server";
import type { MailMessage } from "~/features/mail/message";
import { deliverDueMail, queueMail } from "~/features/mail/outbox.server";
import { sendMail } from "~/features/mail/smtp.server";
import { batch, getDb } from "~/utils/db.server";

// A notification: nothing else in the outbox decides about it.
function message(): MailMessage {
  return {
    kind: "contact-notification",
    to: `ops-${crypto.randomUUID()}@afx.test`,
    subject: "Hello",
    text: "Hello",
    html: "<p>Hello</p>",
  };
}

/** Queues one message, runs the outbox with `settings`, and returns what the row and the log say. */
async function deliverWith(settings: Partial<Env>) {
  const lines: string[] = [];
  for (const level of ["log", "warn", "error"] as const) {
    vi.spyOn(console, level).mockImplementation((...args) => void lines.push(JSON.stringify(args)));
  }
  const mail = message();
  await batch(getDb(env), [queueMail(getDb(env), mail)]);
  const result = await deliverDueMail({ ...env, ...settings });
  const row = await env.DB.prepare("SELECT status, last_error FROM mail_outbox WHERE recipient = ?")
    .bind(mail.to)
    .first<{ status: string; last_error: string }>();
  return { result, row, log: lines.join("\n") };
}

const quits = async () => (await (await fetch(inject("authSmtpQuitsURL"))).json()) as number;

beforeEach(async () => {
  await env.DB.prepare("DELETE FROM mail_outbox").run();
});
afterEach(() => vi.restoreAllMocks());

describe("SMTP failures name their likely cause", () => {
  it("a login refused with 535 says the credentials were refused, keeps the mail queued, and ends the session with QUIT", async () => {
    const before = await quits();
    const { result, row, log } = await deliverWith({
      SMTP_PORT: inject("authSmtpPort"),
      SMTP_USER: "afx",
      SMTP_PASSWORD: "wrong",
    });
    expect(result).toEqual({ sent: 0, retried: 1, gaveUp: 0 });
    expect(row?.last_error).toMatch(
      /^SMTP AUTH PLAIN refused: credentials refused \(535 5\.7\.8 Authentication credentials invalid\); check SMTP_USER and SMTP_PASSWORD$/,
    );
    expect(log).toMatch(/\[mail\] will retry.*credentials refused \(535/);
    expect(log).not.toContain("wrong");
    expect(await quits()).toBe(before + 1);
  });

  it("SMTP_USER set and a server that offers no AUTH: refused before sending (the server may not be the one meant), retried later", async () => {
    const { result, row } = await deliverWith({
      SMTP_PORT: inject("slowSmtpPort"),
      SMTP_USER: "afx",
      SMTP_PASSWORD: "secret",
    });
    expect(result).toEqual({ sent: 0, retried: 1, gaveUp: 0 });
    expect(row).toMatchObject({ status: "queued", last_error: "the SMTP server offers no AUTH but SMTP_USER is set" });
  });

  it("STARTTLS with a certificate workerd does not trust: the handshake and its likely cause, not 'internal error'", async () => {
    const { result, row } = await deliverWith({ SMTP_PORT: inject("startTlsSmtpPort"), SMTP_SECURITY: "starttls" });
    expect(result).toEqual({ sent: 0, retried: 1, gaveUp: 0 });
    expect(row?.last_error).toMatch(
      /^TLS handshake with 127\.0\.0\.1:\d+ failed after STARTTLS \(certificate not trusted or name mismatch\?\)/,
    );
  });

  it("implicit TLS with a certificate workerd does not trust: a TLS failure, not 'could not connect' (which an unreachable server still is)", async () => {
    const { row } = await deliverWith({ SMTP_PORT: inject("tlsSmtpPort"), SMTP_SECURITY: "tls" });
    expect(row?.last_error).toMatch(
      /^TLS handshake with 127\.0\.0\.1:\d+ failed \(certificate not trusted or name mismatch\?\)/,
    );
    const down = await deliverWith({ SMTP_PORT: inject("closedSmtpPort"), SMTP_SECURITY: "tls" });
    expect(down.row?.last_error).toMatch(/^could not connect to 127\.0\.0\.1:\d+: /);
  });

  it("implicit TLS against a server that greets in clear (a STARTTLS port): which port goes with which mode", async () => {
    const { row } = await deliverWith({ SMTP_SECURITY: "tls" });
    expect(row?.last_error).toMatch(
      /^TLS handshake with 127\.0\.0\.1:\d+ failed: the server greets in clear text \("220 .*"\), so it expects STARTTLS or no TLS; port 465 is implicit TLS \(SMTP_SECURITY=tls\), 587 is STARTTLS \(SMTP_SECURITY=starttls\)$/,
    );
  });

  it("STARTTLS against an implicit-TLS server (which waits for a TLS hello and never greets): the timeout says so", async () => {
    const config = smtpConfig({ ...env, SMTP_PORT: inject("tlsSmtpPort"), SMTP_SECURITY: "starttls" });
    await expect(sendMail(config, message(), 1_000)).rejects.toThrow(
      /^no SMTP greeting from 127\.0\.0\.1:\d+ within 1 s — is this an implicit-TLS port \(465\)\? try SMTP_SECURITY=tls$/,
    );
  });
});

describe("a sent message", () => {
  it("is logged with the server's accepting reply (where a provider names its queue id), no address", async () => {
    const { result, log } = await deliverWith({});
    expect(result).toEqual({ sent: 1, retried: 0, gaveUp: 0 });
    expect(log).toMatch(/\[mail\] sent.*"reply":"250 /);
  });
});
