/**
 * The confirmation e-mail of the double opt-in: plain text and HTML with the same words, the
 * group's name, no venture's, and the RFC 8058 one-click unsubscribe headers every newsletter
 * e-mail carries. It goes to whatever address a stranger typed, so it holds no text a visitor
 * chose (a name would let anyone write to anyone under our DKIM signature): a fixed greeting.
 */
import { SITE } from "~/content/site";
import { htmlFrame } from "~/features/mail/html-frame";
import type { MailMessage } from "~/features/mail/message";
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
}

/** The outbox's name for these e-mails. */
export const CONFIRMATION_KIND = "newsletter-confirm";
export const CONFIRMATION_SUBJECT = `Confirm your subscription to ${SITE.name}`;

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
}: ConfirmationMailInput): MailMessage {
  const greeting = CONFIRMATION_GREETING;
  const lines = {
    ask:
      topic === "alerts"
        ? `Please confirm that you want ${SITE.name}'s investor alerts (one e-mail per announcement) at ${to}.`
        : `Please confirm that you want to receive news from ${SITE.name} and its ventures at ${to}.`,
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
    "",
    "Confirm your subscription:",
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
    CONFIRMATION_SUBJECT,
    `<p style="margin:0 0 16px;font-size:18px;font-weight:600">${e(SITE.name)}</p>
<p style="margin:0 0 16px">${e(greeting)}</p>
<p style="margin:0 0 24px">${e(lines.ask)}</p>
<p style="margin:0 0 24px"><a href="${e(confirmUrl)}" style="display:inline-block;background:#171717;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">Confirm subscription</a></p>
<p style="margin:0 0 8px;font-size:14px;color:#525252">${e(lines.valid)} ${e(lines.ignore)}</p>
<p style="margin:0 0 24px;font-size:14px;color:#525252">If the button does not work, open this address: <a href="${e(confirmUrl)}" style="color:#525252">${e(confirmUrl)}</a></p>${
      preferencesUrl
        ? `\n<p style="margin:0 0 24px;font-size:14px;color:#525252">${e(lines.choose.replace(/:$/, "."))} <a href="${e(preferencesUrl)}" style="color:#525252">Choose your alerts</a></p>`
        : ""
    }
<p style="margin:0 0 8px;font-size:12px;color:#737373">${e(lines.notMe.replace(/:$/, "."))}</p>
<p style="margin:0;font-size:12px;color:#737373"><a href="${e(new URL(siteUrl).href)}" style="color:#737373">${e(SITE.name)}</a> · <a href="${e(unsubscribeUrl)}" style="color:#737373">Unsubscribe</a></p>`,
  );
  return {
    kind: CONFIRMATION_KIND,
    to,
    subject: CONFIRMATION_SUBJECT,
    text,
    html,
    headers: unsubscribeHeaders(unsubscribeUrl),
  };
}
