import { Email } from "worker-mailer";
import type { Config } from "~/utils/config.server";
import { messageProblem, senderOf, type MailMessage } from "./message";
import { connectFailure, startTlsFailure, timeoutMessage, type SmtpStage } from "./smtp-diagnosis.server";
import { replyText, SmtpSession, type SmtpReply } from "./smtp-session.server";
import { reasonOf, SEND_TIMEOUT_MS, within, type MailTransport, type SendOutcome } from "./transport.server";

/** SMTP's settings (MAIL_TRANSPORT = "smtp"). */
export type SmtpConfig = NonNullable<Config["smtp"]>;

const QUIT_WAIT_MS = 2_000;

// Our own SMTP dialogue (RFC 5321): worker-mailer upgrades to TLS only when the server offers
// STARTTLS and otherwise logs in and sends in clear (anyone on the path who strips the offer reads
// the password), and its internals are not ours to patch. Its public Email class writes the MIME.
const TRANSPORT = { tls: "on", starttls: "starttls", off: "off" } as const;
// The EHLO argument: a Worker has no host name of its own, and an address literal is valid syntax.
const CLIENT_NAME = "[127.0.0.1]";

/**
 * Sends one message over its own SMTP connection: resolves, with the server's reply, once it
 * accepted the message; rejects with the reason and its likely cause otherwise (refused,
 * unreachable, a certificate, a port that does not match SMTP_SECURITY, or slower than `timeoutMs`).
 */
export async function sendMail(config: SmtpConfig, message: MailMessage, timeoutMs = SEND_TIMEOUT_MS): Promise<string> {
  const problem = messageProblem(message);
  if (problem) throw new Error(`message refused: ${problem}`);
  const data = new Email({
    from: senderOf(message.kind, config.from),
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    // Validated as one bare address (messageProblem); Email writes the Reply-To field.
    ...(message.replyTo ? { reply: message.replyTo } : {}),
    headers: { ...message.headers },
  }).getEmailData();
  const session = new SmtpSession(config.host, config.port, TRANSPORT[config.security]);
  const at: { stage: SmtpStage } = { stage: "connect" };
  try {
    const accepted = await within(converse(session, config, message.to, data, at), timeoutMs, () =>
      timeoutMessage(config, at.stage, timeoutMs),
    );
    await quit(session);
    return accepted;
  } catch (error) {
    // The server answered, or we stopped between replies: the dialogue is in step, so it ends politely.
    if (error instanceof SmtpRefusal || error instanceof SmtpSetupError) await quit(session);
    throw error;
  } finally {
    session.close();
  }
}

/** QUIT is a courtesy, bounded so that a server that stalls cannot hold the run. */
async function quit(session: SmtpSession): Promise<void> {
  await within(session.command("QUIT"), QUIT_WAIT_MS, () => "QUIT").catch(() => {});
}

/** The dialogue, `at` kept at its stage (for the timeout's message); returns the server's reply accepting the message. */
async function converse(
  session: SmtpSession,
  config: SmtpConfig,
  to: string,
  data: string,
  at: { stage: SmtpStage },
): Promise<string> {
  try {
    await session.opened;
  } catch (error) {
    throw new Error(await connectFailure(config, error));
  }
  at.stage = "greeting";
  check(await session.read(), "220", "greeting");
  at.stage = "dialogue";
  let capabilities = await hello(session);
  if (config.security === "starttls") {
    if (!capabilities.has("STARTTLS"))
      throw new SmtpSetupError("the SMTP server did not offer STARTTLS (SMTP_SECURITY = starttls requires it)");
    check(await session.command("STARTTLS"), "220", "STARTTLS");
    at.stage = "tls";
    session.startTls();
    try {
      capabilities = await hello(session); // what was offered in clear may have been tampered with
    } catch (error) {
      // The first read over TLS is where a refused certificate shows, as "internal error; reference = …".
      if (error instanceof SmtpRefusal) throw error;
      throw new Error(startTlsFailure(config, error));
    }
    at.stage = "dialogue";
  }
  await logIn(session, capabilities, config);
  check(await session.command(`MAIL FROM:<${config.from.email}>`), "2", "MAIL FROM");
  check(await session.command(`RCPT TO:<${to}>`), "2", "RCPT TO");
  check(await session.command("DATA"), "354", "DATA");
  // worker-mailer 1.2.1 ends the data, dot-stuffed, with the terminating "." line; added if a later one does not.
  await session.write(data.endsWith("\r\n.\r\n") ? data : `${data}\r\n.\r\n`);
  const accepted = await session.read();
  check(accepted, "2", "message");
  return replyText(accepted);
}

/** EHLO, or HELO for a server without extensions; returns the extensions offered, keyword → parameters. */
async function hello(session: SmtpSession): Promise<Map<string, string[]>> {
  const reply = await session.command(`EHLO ${CLIENT_NAME}`);
  // 5xx: EHLO not understood. A 4xx (421: closing) is an answer: HELO would get no better.
  if (reply.code >= 500) {
    check(await session.command(`HELO ${CLIENT_NAME}`), "2", "HELO");
    return new Map();
  }
  check(reply, "2", "EHLO");
  // The first line greets; each further one is "KEYWORD params", AUTH's also in the old "AUTH=…" form.
  const words = reply.lines.slice(1).map((line) =>
    line
      .slice(4)
      .trim()
      .toUpperCase()
      .split(/[\s=]+/),
  );
  return new Map(words.map(([keyword = "", ...params]) => [keyword, params]));
}

async function logIn(session: SmtpSession, capabilities: Map<string, string[]>, config: SmtpConfig): Promise<void> {
  const methods = capabilities.get("AUTH");
  const { credentials } = config;
  if (!methods) {
    if (!credentials) return; // the server takes no login, and none is configured
    // Sending without the configured login would hide a server that is not the one meant.
    const why =
      config.security === "off" && capabilities.has("STARTTLS")
        ? " (it may offer AUTH only after STARTTLS: try SMTP_SECURITY=starttls)"
        : "";
    throw new SmtpSetupError(`the SMTP server offers no AUTH but SMTP_USER is set${why}`);
  }
  if (!credentials) throw new SmtpSetupError("the SMTP server asks for a login (AUTH) and SMTP_USER is not set");
  const { username, password } = credentials;
  // Step names only in errors: the commands carry the credentials.
  if (methods.includes("PLAIN")) {
    check(
      await session.command(`AUTH PLAIN ${base64(`\0${username}\0${password}`)}`),
      "2",
      "AUTH PLAIN",
      credentialsRefused,
    );
  } else if (methods.includes("LOGIN")) {
    check(await session.command("AUTH LOGIN"), "334", "AUTH LOGIN");
    check(await session.command(base64(username)), "334", "AUTH LOGIN user name", credentialsRefused);
    check(await session.command(base64(password)), "2", "AUTH LOGIN password", credentialsRefused);
  } else {
    throw new SmtpSetupError(
      `the SMTP server offers no login method we have (AUTH ${methods.join(" ")}; we have PLAIN and LOGIN)`,
    );
  }
}

// 535 (RFC 4954): the user name or the password is wrong.
const credentialsRefused = (reply: SmtpReply) =>
  reply.code === 535
    ? `credentials refused (${replyText(reply)}); check SMTP_USER and SMTP_PASSWORD`
    : replyText(reply);

/** Throws, with the server's code and text (as `describe` puts them), unless the reply's code starts with `code`. */
function check(reply: SmtpReply, code: string, step: string, describe = replyText): void {
  if (!String(reply.code).startsWith(code)) throw new SmtpRefusal(step, reply, describe);
}

// The steps whose reply is about this message (its recipient, its content), not about our setup:
// a 5xx to EHLO, AUTH or MAIL FROM (a wrong password, an unverified sender) holds for every
// message until an operator fixes the configuration, so those mails wait and retry instead.
const MESSAGE_STEPS = new Set(["RCPT TO", "DATA", "message"]);

/** The server answered a step with a code other than the one expected. */
class SmtpRefusal extends Error {
  readonly code: number;
  constructor(
    readonly step: string,
    reply: SmtpReply,
    describe = replyText,
  ) {
    super(`SMTP ${step} refused: ${describe(reply)}`);
    this.code = reply.code;
  }
}

/** We stopped between replies: the server cannot be used as configured (no STARTTLS, no AUTH, no login method we have). */
class SmtpSetupError extends Error {}

/** Whether `error` is a permanent (5xx) refusal of the message itself: sending it again cannot succeed. */
function isPermanentRefusal(error: unknown): boolean {
  return error instanceof SmtpRefusal && error.code >= 500 && MESSAGE_STEPS.has(error.step);
}

// UTF-8, so that a password outside Latin-1 does not make btoa throw.
function base64(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)));
}

/**
 * The "smtp" transport: `sendMail` over its own connection per message. The Message-ID is ours
 * (worker-mailer would make one up unseen), so the outcome names it as the Email Service's does.
 */
export function smtpTransport(config: SmtpConfig): MailTransport {
  return {
    name: "smtp",
    async send(message: MailMessage): Promise<SendOutcome> {
      const messageId = `<${crypto.randomUUID()}@${config.from.email.split("@").pop()}>`;
      try {
        const reply = await sendMail(config, { ...message, headers: { ...message.headers, "Message-ID": messageId } });
        return { is: "sent", messageId, reply };
      } catch (error) {
        // A 5xx to the recipient or the message is final; anything else may pass on a later try.
        return { is: isPermanentRefusal(error) ? "permanent" : "retry", reason: reasonOf(error) };
      }
    },
  };
}
