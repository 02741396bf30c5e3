import { escapeHtml } from "~/utils/escape-html";

/**
 * The HTML frame every e-mail of the site shares: a centred 560 px card on a grey page, inline
 * styles only (mail clients drop <style> and classes). Its text wraps anywhere, so a long link
 * or address fits a 412 px phone. `body` is HTML the caller has escaped. Its colours are never six
 * digits (#171717): a room's sign-in code must be the only six-digit number in its mail.
 */
export function htmlFrame(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#f5f5f5;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:rgb(23,23,23)">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;table-layout:fixed;background:#ffffff;border-radius:12px;padding:32px">
<tr><td style="overflow-wrap:anywhere;word-break:break-word">
${body}
</td></tr></table>
</td></tr></table>
</body></html>`;
}
