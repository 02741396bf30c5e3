import { ConfigError, getConfig } from "~/utils/config.server";
import { emailServiceTransport } from "./email-service.server";
import { smtpTransport, type SmtpConfig } from "./smtp.server";
import type { MailTransport } from "./transport.server";

export type { SmtpConfig };

/** The SMTP settings, from the one configuration (throws ConfigError, naming the variable, when one is unusable or MAIL_TRANSPORT is not "smtp"). */
export function smtpConfig(env: Env): SmtpConfig {
  const { smtp } = getConfig(env);
  if (!smtp) throw new ConfigError(['MAIL_TRANSPORT is not "smtp"']);
  return smtp;
}

/**
 * How mail leaves (MAIL_TRANSPORT): the Email Service's EMAIL binding or SMTP. Throws ConfigError
 * when the chosen one cannot work (an SMTP variable that does not parse, no EMAIL binding).
 */
export function mailTransport(env: Env): MailTransport {
  const { mail } = getConfig(env);
  if (mail.transport === "smtp") return smtpTransport(smtpConfig(env));
  const binding = (env as { EMAIL?: SendEmail }).EMAIL;
  if (!binding)
    throw new ConfigError([
      'MAIL_TRANSPORT is "email-service" and the worker has no EMAIL binding (wrangler.toml [[send_email]])',
    ]);
  return emailServiceTransport(binding, mail.from);
}
