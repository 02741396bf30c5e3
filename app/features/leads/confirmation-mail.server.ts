/**
 * The confirmation e-mail of the double opt-in: plain text and HTML with the same words, the
 * group's name, no venture's, and the RFC 8058 one-click unsubscribe headers every newsletter
 * e-mail carries. It goes to whatever address a stranger typed, so it holds no text a visitor
 * chose (a name would let anyone write to anyone under our DKIM signature): a fixed greeting.
 */
import { SITE } from "~/content/site";
import { htmlFrame } from "~/features/mail/html-frame";
import { ALERTS_CONFIRMATION_KIND, type MailMessage } from "~/features/mail/message";
import { ALERTS_TEXT } from "~/features/leads/newsletter";
import { escapeHtml } from "~/utils/escape-html";
import type { LeadTopic } from "~/db/schema";

export interface ConfirmationMailInput {
  siteUrl: string;
  to: string;
  /** What the address is asked to confirm: the newsletter (the default) or the investor alerts. */
  topic?: LeadTopic;
  confirmUrl: string;
  unsubscribeUrl: string;
  /** The investor alerts' preferences page (which ventures, which kinds): alerts only. */
  preferencesUrl?: string;
  /** What the alerts signup ticked (the catalogue's venture names, the reminders): repeated, so nobody is surprised. */
  choice?: { ventures: readonly string[]; reminders: boolean };
}

/** The outbox's names for these e-mails: the newsletter's, and the investor alerts' (its own sender name). */
export const CONFIRMATION_KIND = "newsletter-confirm";
export const CONFIRMATION_KINDS = [CONFIRMATION_KIND, ALERTS_CONFIRMATION_KIND];
export const CONFIRMATION_SUBJECT = `Confirm your subscription to ${SITE.name}`;
/** Each topic's confirmation e-mail speaks of that topic: its subject, its sender name, its words. */
export const ALERTS_CONFIRMATION_SUBJECT = ALERTS_TEXT.confirmSubject;

/** The List-Unsubscribe pair: mail clients show an unsubscribe button that POSTs to the URL. */
export function unsubscribeHeaders(unsubscribeUrl: string): Record<string, string> {
  return { "List-Unsubscribe": `<${unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}

export const CONFIRMATION_GREETING = "Hello,";

export function confirmationMail({
  siteUrl,
  to,
  topic = "newsletter",
  confirmUrl,
  unsubscribeUrl,
  preferencesUrl,
  choice,
}: ConfirmationMailInput): MailMessage {
  const greeting = CONFIRMATION_GREETING;
  const alerts = topic === "alerts";
  const subject = alerts ? ALERTS_CONFIRMATION_SUBJECT : CONFIRMATION_SUBJECT;
  const button = alerts ? "Confirm investor alerts" : "Confirm subscription";
  const lines = {
    ask: alerts
      ? ALERTS_TEXT.confirmAsk(to)
      : `Please confirm that you want to receive news from ${SITE.name} and its ventures at ${to}.`,
    chosen: alerts && choice ? ALERTS_TEXT.confirmChoice(choice.ventures, choice.reminders) : "",
    valid: "The link works once, for 7 days.",
    choose: "Only some ventures, or only news or documents? Choose here (no sign-in needed):",
    ignore:
      "If you did not sign up, ignore this e-mail: you will not be subscribed, and your address will be deleted within 30 days.",
    notMe: "Not you? Unsubscribe, and no signup will make us e-mail this address again:",
  };
  const text = [
    greeting,
    "",
    lines.ask,
    ...(lines.chosen ? ["", lines.chosen] : []),
    "",
    `${button}:`,
    confirmUrl,
    "",
    lines.valid,
    lines.ignore,
    "",
    ...(preferencesUrl ? [lines.choose, preferencesUrl, ""] : []),
    `— ${SITE.name}`,
    new URL(siteUrl).href,
    "",
    lines.notMe,
    `Unsubscribe: ${unsubscribeUrl}`,
  ].join("\r\n");
  const e = escapeHtml;
  const html = htmlFrame(
    subject,
    `<p style="margin:0 0 16px;font-size:18px;font-weight:600">${e(SITE.name)}</p>
<p style="margin:0 0 16px">${e(greeting)}</p>
<p style="margin:0 0 24px;overflow-wrap:anywhere;word-break:break-word">${e(lines.ask)}</p>${
      lines.chosen ? `\n<p style="margin:0 0 24px">${e(lines.chosen)}</p>` : ""
    }
<p style="margin:0 0 24px"><a href="${e(confirmUrl)}" style="display:inline-block;background:#171717;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">${e(button)}</a></p>
<p style="margin:0 0 8px;font-size:14px;color:#525252">${e(lines.valid)} ${e(lines.ignore)}</p>
<p style="margin:0 0 24px;font-size:14px;color:#525252;overflow-wrap:anywhere;word-break:break-all">If the button does not work, open this address: <a href="${e(confirmUrl)}" style="color:#525252;word-break:break-all">${e(confirmUrl)}</a></p>${
      preferencesUrl
        ? `\n<p style="margin:0 0 24px;font-size:14px;color:#525252">${e(lines.choose.replace(/:$/, "."))} <a href="${e(preferencesUrl)}" style="color:#525252">Choose your alerts</a></p>`
        : ""
    }
<p style="margin:0 0 8px;font-size:12px;color:#737373">${e(lines.notMe.replace(/:$/, "."))}</p>
<p style="margin:0;font-size:12px;color:#737373"><a href="${e(new URL(siteUrl).href)}" style="color:#737373">${e(SITE.name)}</a> · <a href="${e(unsubscribeUrl)}" style="color:#737373">Unsubscribe</a></p>`,
  );
  return {
    kind: alerts ? ALERTS_CONFIRMATION_KIND : CONFIRMATION_KIND,
    to,
    subject,
    text,
    html,
    headers: unsubscribeHeaders(unsubscribeUrl),
  };
}
