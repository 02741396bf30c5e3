import { ALERTS_TEXT } from "~/features/leads/newsletter";
import { isMailAddress } from "~/utils/mail-address";

/**
 * One e-mail as the app hands it to the outbox. `kind` names what it is for (the dashboard and the
 * logs group by it: "newsletter-confirm", "contact-notification"…); `headers` carries extra header
 * fields such as `List-Unsubscribe` and `List-Unsubscribe-Post` (RFC 8058); `replyTo` is where an
 * answer goes (Reply-To), one bare address, written by worker-mailer itself (hence not a header).
 */
export interface MailMessage {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
  headers?: Record<string, string>;
}

/**
 * The kinds of newsletter mail (`newsletter-confirm`…) and of investor alerts (`alert-news-…`,
 * features/alerts/alerts.server.ts `alertMailKind`): list mail, whose delivery events may change
 * the lead it went to (features/mail/events.server.ts); events about other mail never do.
 */
export const NEWSLETTER_KIND_PREFIX = "newsletter-";
export const ALERT_KIND_PREFIX = "alert-";
export const LIST_KIND_PREFIXES = [NEWSLETTER_KIND_PREFIX, ALERT_KIND_PREFIX] as const;

/** The kinds of investor-alert mail: each alert (`alert-…`) and the alerts' confirmation e-mail. */
export const ALERTS_CONFIRMATION_KIND = "newsletter-confirm-alerts";
export const isAlertsMail = (kind: string) => kind.startsWith("alert-") || kind === ALERTS_CONFIRMATION_KIND;

/**
 * The sender's name a message goes out under: investor alerts under their own ("AFX Holding Group
 * Investor Alerts"), so an inbox tells them from the newsletter; every other kind under MAIL_FROM's.
 * Read from the kind, which the outbox stores, when the message is sent.
 */
export function senderOf(kind: string, from: { name?: string; email: string }): { name?: string; email: string } {
  return isAlertsMail(kind) ? { ...from, name: ALERTS_TEXT.senderName } : from;
}

const HEADER_NAME = /^[A-Za-z][A-Za-z0-9-]*$/;
// The header fields worker-mailer writes itself from the message; a copy would duplicate them.
const RESERVED = new Set([
  "from",
  "to",
  "cc",
  "bcc",
  "reply-to",
  "subject",
  "mime-version",
  "content-type",
  "content-transfer-encoding",
]);

/**
 * Why this message cannot go out as is, or null. The headers (worker-mailer's Email) and the
 * envelope (smtp.server.ts) are written verbatim, so a line break in any of them would let text
 * chosen by a visitor add headers or SMTP commands: refused here, before anything is queued.
 */
export function messageProblem(message: MailMessage): string | null {
  if (!/^[a-z][a-z0-9-]{0,63}$/.test(message.kind)) return "kind is not a short lower-case name";
  if (!isMailAddress(message.to)) return "to is not a single e-mail address";
  if (message.replyTo !== undefined && !isMailAddress(message.replyTo)) return "replyTo is not a single e-mail address";
  if (!message.subject.trim() || message.subject.length > 200 || /[\r\n]/.test(message.subject))
    return "subject is empty, too long or has a line break";
  if (!message.text.trim() || !message.html.trim()) return "the text and the HTML part are both required";
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    if (!HEADER_NAME.test(name) || RESERVED.has(name.toLowerCase()))
      return `header ${JSON.stringify(name)} is not allowed`;
    // Printable ASCII only: worker-mailer neither encodes nor folds custom headers.
    if (!/^[\x20-\x7e]{1,900}$/.test(value)) return `header ${name} is empty, too long or not printable ASCII`;
  }
  return null;
}

/**
 * An address for the logs (and for a page a forwarded link opens): enough to tell addresses
 * apart, not enough to read it. `hidden` is what stands for the rest of the mailbox.
 */
export function maskAddress(address: string, hidden = "***"): string {
  const at = address.lastIndexOf("@");
  if (at < 1) return hidden;
  return `${address[0]}${hidden}@${address.slice(at + 1)}`;
}

/** Error text for the logs with every address in it masked (SMTP replies quote the recipient). */
export function maskAddresses(text: string): string {
  return text.replace(/[^\s<>()",;:@]+@[^\s<>()",;:@]+/g, maskAddress);
}
