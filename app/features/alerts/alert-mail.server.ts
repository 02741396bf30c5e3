/**
 * An investor alert's e-mail (docs/decisions/075-investor-alerts.md): the item's title as the
 * subject, its summary, one link to it, and the RFC 8058 one-click unsubscribe of the subscriber's
 * `alerts` lead, which ends the alerts alone (the newsletter, a lead of its own, stays).
 */
import { SITE } from "~/content/site";
import { unsubscribeHeaders } from "~/features/leads/confirmation-mail.server";
import { htmlFrame } from "~/features/mail/html-frame";
import type { MailMessage } from "~/features/mail/message";
import { escapeHtml } from "~/utils/escape-html";

export interface AlertMailInput {
  kind: string;
  to: string;
  title: string;
  summary: string;
  url: string;
  unsubscribeUrl: string;
  /** The subscriber's own preferences page (which ventures, which kinds). */
  preferencesUrl: string;
}

/** A subject line: the title, on one line, within the outbox's 200 characters. */
const subjectOf = (title: string) => `${SITE.name}: ${title.replace(/\s+/g, " ").trim()}`.slice(0, 200);

export function alertMail({
  kind,
  to,
  title,
  summary,
  url,
  unsubscribeUrl,
  preferencesUrl,
}: AlertMailInput): MailMessage {
  const subject = subjectOf(title);
  const why = `You get this because you asked for ${SITE.name}'s investor alerts.`;
  const text = [
    title,
    "",
    summary,
    "",
    `Read it: ${url}`,
    "",
    `— ${SITE.name}`,
    "",
    why,
    `Choose which ventures and kinds: ${preferencesUrl}`,
    `Stop the alerts: ${unsubscribeUrl}`,
  ].join("\r\n");
  const e = escapeHtml;
  const html = htmlFrame(
    subject,
    `<p style="margin:0 0 16px;font-size:14px;color:#525252">${e(SITE.name)} · Investor alert</p>
<h1 style="margin:0 0 16px;font-size:20px">${e(title)}</h1>
<p style="margin:0 0 24px">${e(summary)}</p>
<p style="margin:0 0 24px"><a href="${e(url)}" style="display:inline-block;background:#171717;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">Read it</a></p>
<p style="margin:0;font-size:12px;color:#737373">${e(why)} <a href="${e(preferencesUrl)}" style="color:#737373">Choose which ventures and kinds</a> · <a href="${e(unsubscribeUrl)}" style="color:#737373">Stop the alerts</a></p>`,
  );
  return { kind, to, subject, text, html, headers: unsubscribeHeaders(unsubscribeUrl) };
}
