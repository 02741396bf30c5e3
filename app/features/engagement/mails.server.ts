/**
 * The room mails of issue 59 (docs/decisions/119), each plain text with the site's HTML frame:
 * "Updated: <title>" to a reader of an earlier version, the owner's "Question in <room>", and the
 * answer to the asker. Each goes through the outbox (`queueMail`) in the batch that records it.
 */
import type { MailMessage } from "~/features/mail/message";
import { htmlFrame } from "~/features/mail/html-frame";
import { escapeHtml } from "~/utils/escape-html";

const paragraphs = (lines: string[]) =>
  lines.map((line) => `<p style="margin:0 0 16px;line-height:1.5">${line}</p>`).join("\n");
const link = (href: string, text: string) =>
  `<a href="${escapeHtml(href)}" style="color:#2563eb">${escapeHtml(text)}</a>`;

export function updateMail(input: {
  to: string;
  title: string;
  roomTitle: string;
  changes: string;
  roomUrl: string;
  stopUrl: string;
}): MailMessage {
  const subject = `Updated: ${input.title}`;
  const text = [
    `A document you read in the room “${input.roomTitle}” has a new version: ${input.title}.`,
    "",
    `What changed: ${input.changes}`,
    "",
    `Read it in the room: ${input.roomUrl}`,
    "",
    `Stop these update mails for this room (one click): ${input.stopUrl}`,
    "",
  ].join("\n");
  const html = htmlFrame(
    subject,
    paragraphs([
      `A document you read in the room “${escapeHtml(input.roomTitle)}” has a new version: <strong>${escapeHtml(input.title)}</strong>.`,
      `What changed: ${escapeHtml(input.changes)}`,
      link(input.roomUrl, "Read it in the room"),
      `<small>${link(input.stopUrl, "Stop these update mails for this room")} (one click).</small>`,
    ]),
  );
  return {
    kind: "room-update",
    to: input.to,
    subject,
    text,
    html,
    headers: { "List-Unsubscribe": `<${input.stopUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}

export function questionMail(input: {
  to: string;
  roomTitle: string;
  asker: { name: string; firm: string; email: string };
  document: string | null;
  question: string;
  adminUrl: string;
}): MailMessage {
  const who = `${input.asker.name}${input.asker.firm ? ` (${input.asker.firm})` : ""}`;
  const subject = `Question in ${input.roomTitle}`;
  const about = input.document ? ` about “${input.document}”` : "";
  const text = [
    `${who}, ${input.asker.email}, asked a question${about} in the room “${input.roomTitle}”:`,
    "",
    input.question,
    "",
    `Answer it on the room's page: ${input.adminUrl}`,
    "",
  ].join("\n");
  const html = htmlFrame(
    subject,
    paragraphs([
      `${escapeHtml(who)}, ${escapeHtml(input.asker.email)}, asked a question${escapeHtml(about)} in the room “${escapeHtml(input.roomTitle)}”:`,
      `<span style="white-space:pre-wrap">${escapeHtml(input.question)}</span>`,
      link(input.adminUrl, "Answer it on the room's page"),
    ]),
  );
  return { kind: "room-question", to: input.to, subject, text, html };
}

export function answerMail(input: {
  to: string;
  roomTitle: string;
  question: string;
  answer: string;
  roomUrl: string;
}): MailMessage {
  const subject = `Answer: your question in ${input.roomTitle}`;
  const text = [
    `You asked in the room “${input.roomTitle}”:`,
    "",
    input.question,
    "",
    "The answer:",
    "",
    input.answer,
    "",
    `The room: ${input.roomUrl}`,
    "",
  ].join("\n");
  const html = htmlFrame(
    subject,
    paragraphs([
      `You asked in the room “${escapeHtml(input.roomTitle)}”:`,
      `<span style="white-space:pre-wrap">${escapeHtml(input.question)}</span>`,
      "The answer:",
      `<span style="white-space:pre-wrap">${escapeHtml(input.answer)}</span>`,
      link(input.roomUrl, "The room"),
    ]),
  );
  return { kind: "room-answer", to: input.to, subject, text, html };
}
