import { getConfig, type Config } from "~/utils/config.server";

export type SmtpConfig = Config["smtp"];
export type SmtpSecurity = SmtpConfig["security"];

/** The SMTP settings, from the one configuration (throws ConfigError, naming the variable, when one is unusable). */
export function smtpConfig(env: Env): SmtpConfig {
  return getConfig(env).smtp;
}
