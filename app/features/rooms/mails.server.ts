/**
 * The investor rooms' e-mails (docs/rooms.md), each plain text and HTML with the same content,
 * through the outbox like every mail: the invitation with its personal link, the sign-in code
 * (the only six-digit number in it: no colour, date or link in it has six digits in a row), and
 * the owner's "opened the room" notice.
 */
import { SITE } from "~/content/site";
import { htmlFrame } from "~/features/mail/html-frame";
import type { MailMessage } from "~/features/mail/message";
import { escapeHtml } from "~/utils/escape-html";

export const INVITATION_KIND = "room-invitation";
export const CODE_KIND = "room-code";
export const VISIT_KIND = "room-visit";

/** One line of at most `max` characters: a title or a name never starts a new header line. */
function oneLine(text: string, max = 150): string {
  const line = [...text]
    .map((c) => (c < " " || c === "\x7f" ? " " : c))
    .join("")
    .replace(/\s+/g, " ")
    .trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

const BUTTON =
  "display:inline-block;background:#222;color:#fff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600";
const MUTED = "margin:0;font-size:12px;color:#666";

export function invitationMail(input: {
  to: string;
  name: string;
  roomTitle: string;
  /** Who the room is for: a venture's name, or the group's. */
  owner: string;
  link: string;
}): MailMessage {
  const title = oneLine(input.roomTitle);
  const subject = oneLine(`${input.owner} invites you to “${title}”`, 200);
  const text = [
    `Hello ${oneLine(input.name, 100)},`,
    "",
    `${input.owner} has shared confidential documents with you in the investor room “${title}”.`,
    "",
    `Open the room: ${input.link}`,
    "",
    "The link is personal. To come in, you enter this e-mail address and we send you a one-time code.",
    "",
    `— ${SITE.name}`,
  ].join("\r\n");
  const e = escapeHtml;
  const html = htmlFrame(
    subject,
    `<p style="margin:0 0 16px">Hello ${e(oneLine(input.name, 100))},</p>
<p style="margin:0 0 16px">${e(input.owner)} has shared confidential documents with you in the investor room “${e(title)}”.</p>
<p style="margin:0 0 24px"><a href="${e(input.link)}" style="${BUTTON}">Open the room</a></p>
<p style="${MUTED}">The link is personal. To come in, you enter this e-mail address and we send you a one-time code. ${e(SITE.name)}</p>`,
  );
  return { kind: INVITATION_KIND, to: input.to, subject, text, html };
}

/** The one-time code; the room's title is left out (it is the admin's text and could hold digits). */
export function codeMail(input: { to: string; code: string }): MailMessage {
  const subject = `Your code for the ${SITE.name} investor room`;
  const text = [
    `Your one-time code: ${input.code}`,
    "",
    "Enter it on the page where you typed your address. It is valid for ten minutes and works once.",
    "If you did not ask for it, ignore this e-mail: nobody gets in without the code.",
    "",
    `— ${SITE.name}`,
  ].join("\r\n");
  const e = escapeHtml;
  const html = htmlFrame(
    subject,
    `<p style="margin:0 0 16px">Your one-time code:</p>
<p style="margin:0 0 24px;font-size:28px;font-weight:700;letter-spacing:4px">${e(input.code)}</p>
<p style="margin:0 0 16px">Enter it on the page where you typed your address. It is valid for ten minutes and works once.</p>
<p style="${MUTED}">If you did not ask for it, ignore this e-mail: nobody gets in without the code. ${e(SITE.name)}</p>`,
  );
  return { kind: CODE_KIND, to: input.to, subject, text, html };
}

export function visitMail(input: {
  to: string;
  investor: { name: string; firm: string; email: string };
  roomTitle: string;
  /** The venture's name, or the group's. */
  venture: string;
  adminUrl: string;
}): MailMessage {
  const who = oneLine(
    input.investor.firm ? `${input.investor.name} (${input.investor.firm})` : input.investor.name,
    120,
  );
  const title = oneLine(input.roomTitle);
  const subject = oneLine(`${who} opened “${title}” (${input.venture})`, 200);
  const lines = [
    `${who} <${input.investor.email}> opened the investor room “${title}” of ${input.venture}.`,
    "",
    `The room's page: ${input.adminUrl}`,
    "",
    "One e-mail per visit (requests within 30 minutes are one visit); the room's page can turn them off.",
  ];
  const e = escapeHtml;
  const html = htmlFrame(
    subject,
    `<p style="margin:0 0 16px">${e(who)} &lt;${e(input.investor.email)}&gt; opened the investor room “${e(title)}” of ${e(input.venture)}.</p>
<p style="margin:0 0 24px"><a href="${e(input.adminUrl)}" style="${BUTTON}">See the room</a></p>
<p style="${MUTED}">One e-mail per visit (requests within 30 minutes are one visit); the room's page can turn them off.</p>`,
  );
  return { kind: VISIT_KIND, to: input.to, subject, text: lines.join("\r\n"), html };
}
