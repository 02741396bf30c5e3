// The "email-service" transport: Cloudflare's Email Service through the `send_email` binding
// (EMAIL in wrangler.toml; simulated by wrangler dev, whose local explorer lists what was sent).
// The platform writes Message-ID, Date and DKIM itself; our List-Unsubscribe, List-Unsubscribe-Post
// and Reply-To go through its `headers` and `replyTo` fields.
import { senderOf, type MailMessage } from "./message";
import { reasonOf, SEND_TIMEOUT_MS, within, type MailTransport, type SendOutcome } from "./transport.server";

/**
 * The binding's error codes that no later attempt can change: the recipient is on the Email
 * Service's own suppression list (it bounced or complained before), or the message itself is
 * malformed. Anything else (a quota or rate limit, an unverified sender, a service error) is
 * retried by the outbox like an SMTP server that is down.
 */
const PERMANENT_CODES = new Set([
  "E_RECIPIENT_SUPPRESSED",
  "E_VALIDATION_ERROR",
  "E_FIELD_MISSING",
  "E_TOO_MANY_RECIPIENTS",
  "E_CONTENT_TOO_LARGE",
  "E_HEADER_NOT_ALLOWED",
  "E_HEADER_USE_API_FIELD",
  "E_HEADER_VALUE_INVALID",
  "E_HEADER_VALUE_TOO_LONG",
  "E_HEADER_NAME_INVALID",
  "E_HEADERS_TOO_LARGE",
  "E_HEADERS_TOO_MANY",
]);

/** The `code` of an error the binding threw ("E_RECIPIENT_SUPPRESSED"…), if it has one. */
function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** The binding's `from`: a bare address, or one with its display name. */
const sender = (from: { name?: string; email: string }) =>
  from.name ? { email: from.email, name: from.name } : from.email;

export function emailServiceTransport(
  binding: SendEmail,
  from: { name?: string; email: string },
  timeoutMs = SEND_TIMEOUT_MS,
): MailTransport {
  return {
    name: "email-service",
    async send(message: MailMessage): Promise<SendOutcome> {
      try {
        // A stalled binding is a failure like a silent SMTP server: retried, never left to
        // outlast the lease (and be sent again by the run that claims the message next).
        const { messageId } = await within(
          binding.send({
            from: sender(senderOf(message.kind, from)),
            to: message.to,
            subject: message.subject,
            text: message.text,
            html: message.html,
            ...(message.replyTo ? { replyTo: message.replyTo } : {}),
            headers: { ...message.headers },
          }),
          timeoutMs,
          () => `the Email Service did not answer within ${timeoutMs / 1000} s`,
        );
        return { is: "sent", messageId };
      } catch (error) {
        const code = codeOf(error);
        const reason = code ? `${code}: ${reasonOf(error)}` : reasonOf(error);
        return { is: code && PERMANENT_CODES.has(code) ? "permanent" : "retry", reason };
      }
    },
  };
}
