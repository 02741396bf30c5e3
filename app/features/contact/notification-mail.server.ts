/**
 * The e-mail that tells the group's contact address about a new Help-form message: plain text and
 * HTML with the same content, Reply-To the sender (so "Reply" answers them), and a link to the
 * message in /admin/messages by its number: the sender's address stays out of URLs (browser
 * histories, request logs).
 */
import { SITE } from "~/content/site";
import { htmlFrame } from "~/features/mail/html-frame";
import type { MailMessage } from "~/features/mail/message";
import { escapeHtml } from "~/utils/escape-html";
import { isMailAddress } from "~/utils/mail-address";
import { inboxPath, messagePath } from "./inbox";

/** The outbox's names for these e-mails. */
const NOTIFICATION_KIND = "contact-notification";
export const DIGEST_KIND = "contact-digest";
const SUBJECT_PREFIX = "Contact form: ";

interface NotificationInput {
  siteUrl: string;
  /** The group's contact address (CONTACT_EMAIL). */
  to: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  /** The stored message's id, or the outbox's slot for it when both are written in one batch. */
  messageId: number | string;
  sentAt: number;
}

/** One line, at most `max` characters: a visitor's subject must never start a new header line. */
function oneLine(text: string, max: number): string {
  const line = [...text]
    .map((c) => (c < " " || c === "\x7f" ? " " : c))
    .join("")
    .replace(/\s+/g, " ")
    .trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function notificationSubject(subject: string): string {
  return `${SUBJECT_PREFIX}${oneLine(subject, 150) || "(no subject)"}`;
}

export function notificationMail(input: NotificationInput): MailMessage {
  // The link comes after everything the visitor wrote (queueMail fills the last slot).
  const inboxUrl = `${new URL(input.siteUrl).origin}${messagePath(input.messageId)}`;
  const sender = `${oneLine(input.name, 100)} <${input.email}>`;
  const date = new Date(input.sentAt).toUTCString();
  const subject = notificationSubject(input.subject);
  const text = [
    `A new message was sent with the contact form of ${SITE.name}.`,
    "",
    `From: ${sender}`,
    `Subject: ${oneLine(input.subject, 150)}`,
    `Sent: ${date}`,
    "",
    input.message,
    "",
    "Reply to this e-mail to answer the sender, then mark the message answered:",
    inboxUrl,
  ].join("\r\n");
  const e = escapeHtml;
  const html = htmlFrame(
    subject,
    `<p style="margin:0 0 16px;font-size:18px;font-weight:600">${e(SITE.name)} · contact form</p>
<p style="margin:0 0 4px"><strong>From:</strong> ${e(sender)}</p>
<p style="margin:0 0 4px"><strong>Subject:</strong> ${e(oneLine(input.subject, 150))}</p>
<p style="margin:0 0 16px;color:#525252"><strong>Sent:</strong> ${e(date)}</p>
<div style="margin:0 0 24px;white-space:pre-wrap">${e(input.message)}</div>
<p style="margin:0;font-size:14px;color:#525252">Reply to this e-mail to answer the sender, then <a href="${e(inboxUrl)}" style="color:#525252">mark the message answered</a>.</p>`,
  );
  return {
    kind: NOTIFICATION_KIND,
    to: input.to,
    subject,
    text,
    html,
    // The form checks the address; an odd one still passes zod but not the mail rules: then no Reply-To.
    ...(isMailAddress(input.email) ? { replyTo: input.email } : {}),
  };
}

/**
 * The one e-mail that stands for every Help message of a burst (docs/decisions/059): past the
 * form's ceiling the messages are stored as usual, and the contact address gets this instead of a
 * notification each. It names no sender and quotes nothing, so erasure has nothing to find in it.
 */
export function burstDigestMail({ siteUrl, to }: { siteUrl: string; to: string }): MailMessage {
  const inboxUrl = `${new URL(siteUrl).origin}${inboxPath({ status: "open" })}`;
  const subject = `${SUBJECT_PREFIX}more messages than usual`;
  const text = [
    `The contact form of ${SITE.name} is receiving more messages than usual.`,
    "They are all stored; to keep this inbox readable, they are notified together in this e-mail.",
    "",
    "Read and answer them in the contact inbox:",
    inboxUrl,
  ].join("\r\n");
  const html = htmlFrame(
    subject,
    `<p style="margin:0 0 16px">The contact form of ${escapeHtml(SITE.name)} is receiving more messages than usual. They are all stored; to keep this inbox readable, they are notified together in this e-mail.</p>
<p style="margin:0"><a href="${escapeHtml(inboxUrl)}">Read and answer them in the contact inbox</a>.</p>`,
  );
  return { kind: DIGEST_KIND, to, subject, text, html };
}
