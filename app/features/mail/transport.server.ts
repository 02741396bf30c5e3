// The last step of the outbox (docs/decisions/015-mail-delivery.md): one message handed to
// whatever carries it out, MAIL_TRANSPORT's choice. Everything before it (the outbox, the queue,
// the leases, the retries, the dashboard) is shared; only this step differs.
import type { MailMessage } from "./message";

/**
 * What became of one send: accepted (with the id the transport gave the message: what its
 * delivery events name); worth trying again later (the server is down, a quota is reached, a
 * setting is wrong); or refused for good (this recipient or this message can never be sent).
 */
export type SendOutcome =
  /** `reply`: the server's words on acceptance (an SMTP provider's queue id there traces a bounce). */
  { is: "sent"; messageId: string; reply?: string } | { is: "retry" | "permanent"; reason: string };

export interface MailTransport {
  readonly name: "email-service" | "smtp";
  /** Never throws: every failure is an outcome. */
  send(message: MailMessage): Promise<SendOutcome>;
}

/** The reason of anything thrown, as text. */
export const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
