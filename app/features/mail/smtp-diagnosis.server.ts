// What an SMTP failure most likely means, in words an operator can act on: workerd reports a
// refused certificate as "internal error; reference = …" (the cause only in its own stderr) and
// any failure of an implicit-TLS connection as "could not connect … proxy request failed", and a
// mode that does not match the port just waits. These messages go to the log and to last_error.
import { replyText, SmtpSession } from "./smtp-session.server";
import { reasonOf } from "./transport.server";

/** Where one delivery is: what a timeout was waiting for. */
export type SmtpStage = "connect" | "greeting" | "tls" | "dialogue";

const PORT_HINT = "port 465 is implicit TLS (SMTP_SECURITY=tls), 587 is STARTTLS (SMTP_SECURITY=starttls)";
const CERTIFICATE_HINT = "certificate not trusted or name mismatch?";
// How long the clear-text probe waits for a greeting: a real server greets at once.
const PROBE_WAIT_MS = 2_000;

/** What the messages need of the SMTP settings. */
type Endpoint = { host: string; port: number; security: "tls" | "starttls" | "off" };

const where = (config: Endpoint) => `${config.host}:${config.port}`;

/** The message for a delivery that ran out of time at `stage`. */
export function timeoutMessage(config: Endpoint, stage: SmtpStage, ms: number): string {
  const seconds = `${ms / 1000} s`;
  switch (stage) {
    case "connect":
      return config.security === "tls"
        ? `no TLS connection to ${where(config)} within ${seconds} (unreachable, or not a TLS port? ${PORT_HINT})`
        : `could not connect to ${where(config)} within ${seconds}`;
    case "greeting":
      // An implicit-TLS server says nothing until it gets a TLS ClientHello.
      return `no SMTP greeting from ${where(config)} within ${seconds} — is this an implicit-TLS port (465)? try SMTP_SECURITY=tls`;
    case "tls":
      return `TLS handshake with ${where(config)} after STARTTLS did not finish within ${seconds}`;
    default:
      return `SMTP delivery took longer than ${ms} ms`;
  }
}

/** The message for an upgrade to TLS (STARTTLS) that failed: the handshake is what failed. */
export function startTlsFailure(config: Endpoint, error: unknown): string {
  return `TLS handshake with ${where(config)} failed after STARTTLS (${CERTIFICATE_HINT}): ${reasonOf(error)}`;
}

/**
 * The message for a connection whose `opened` rejected. With implicit TLS, workerd reports a
 * refused certificate and an unreachable server alike, so a second, clear-text connection tells
 * them apart: refused (the network or the port), a greeting in clear (a STARTTLS or plain port),
 * or silence (a TLS server: its certificate was the problem).
 */
export async function connectFailure(config: Endpoint, error: unknown): Promise<string> {
  const reached = `could not connect to ${where(config)}: ${reasonOf(error)}`;
  if (config.security !== "tls") return reached;
  const probe = new SmtpSession(config.host, config.port, "off");
  try {
    await probe.opened;
  } catch {
    probe.close();
    return reached;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const greeting = await Promise.race([
    probe.read(),
    new Promise<null>((r) => (timer = setTimeout(() => r(null), PROBE_WAIT_MS))),
  ]).catch(() => null);
  clearTimeout(timer);
  probe.close();
  if (greeting) {
    return `TLS handshake with ${where(config)} failed: the server greets in clear text ("${replyText(greeting).slice(0, 80)}"), so it expects STARTTLS or no TLS; ${PORT_HINT}`;
  }
  return `TLS handshake with ${where(config)} failed (${CERTIFICATE_HINT}): ${reasonOf(error)}`;
}
