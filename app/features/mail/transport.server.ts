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

/**
 * How long one send (SMTP's connect, login and dialogue; the Email Service binding's call) may take
 * before it counts as failed and is retried: every transport has it, and it is well within the
 * outbox's lease (LEASE_MS, twice this), so a stalled send has ended before another run may claim
 * the message again.
 */
export const SEND_TIMEOUT_MS = 15_000;

/** `work`, or a rejection with `message()` once `ms` have passed (`work` is then left to fail unseen). */
export async function within<T>(work: Promise<T>, ms: number, message: () => string): Promise<T> {
  work.catch(() => {});
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message())), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
