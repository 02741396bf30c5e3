import { LogLevel, WorkerMailer } from "worker-mailer";
import type { SmtpConfig } from "./config.server";
import { messageProblem, type MailMessage } from "./message";

/** How long one delivery (connect, login, send) may take before it counts as failed. */
export const SEND_TIMEOUT_MS = 15_000;

// worker-mailer 1.2.1 upgrades to TLS only when the server offers STARTTLS, and otherwise logs in
// and sends in clear: anyone on the path who strips the offer reads the password. With
// SMTP_SECURITY = "starttls" the offer is required: the login stops before any credential is sent.
type MailerInternals = { auth(): Promise<void>; startTls: boolean; secure: boolean; supportsStartTls: boolean };
const internals = WorkerMailer.prototype as unknown as MailerInternals;
const authenticate = internals.auth;
internals.auth = function (this: MailerInternals) {
  if (this.startTls && !this.secure && !this.supportsStartTls) {
    return Promise.reject(new Error("the SMTP server did not offer STARTTLS (SMTP_SECURITY = starttls requires it)"));
  }
  return authenticate.call(this);
};

/**
 * Sends one message over its own SMTP connection: resolves once the server accepted it, rejects
 * with the reason otherwise (refused, unreachable, or slower than `timeoutMs`).
 */
export async function sendMail(config: SmtpConfig, message: MailMessage, timeoutMs = SEND_TIMEOUT_MS): Promise<void> {
  const problem = messageProblem(message);
  if (problem) throw new Error(`message refused: ${problem}`);
  let mailer: WorkerMailer | undefined;
  const delivery = (async () => {
    mailer = await WorkerMailer.connect({
      host: config.host,
      port: config.port,
      secure: config.security === "tls",
      startTls: config.security === "starttls",
      credentials: config.credentials,
      authType: ["plain", "login", "cram-md5"],
      // Its own log lines quote SMTP replies, which name the recipient: ours mask it.
      logLevel: LogLevel.NONE,
      socketTimeoutMs: timeoutMs,
    });
    await mailer.send({
      from: config.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      // Validated as one bare address (messageProblem); worker-mailer writes the Reply-To field.
      ...(message.replyTo ? { reply: message.replyTo } : {}),
      headers: { ...message.headers },
    });
  })();
  delivery.catch(() => {}); // settled below or, after a timeout, ignored
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      delivery,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`SMTP delivery took longer than ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    // QUIT, bounded: a server that stalls must not hold the run.
    const closing = (mailer as WorkerMailer | undefined)?.close().catch(() => {});
    if (closing) await Promise.race([closing, new Promise((r) => setTimeout(r, 2_000))]);
  }
}
