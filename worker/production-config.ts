import { isExampleDomain, isLoopbackHost, parseMailFrom } from "~/features/mail/config.server";
import { cookieSecrets } from "~/utils/cookies.server";

/** The SESSION_SECRET of `.dev.vars.example`: fine on a laptop, a forged-session key in production. */
export const EXAMPLE_SESSION_SECRET = "local-development-session-secret-change-me";
/** The local administrator of `wrangler.toml`'s development vars. */
const EXAMPLE_ADMIN = "admin@example.com";

/**
 * What makes this configuration unsafe (or unable to send mail) in production (`ENVIRONMENT = "production"`), as
 * sentences for the log: secrets and names never appear in them. Empty elsewhere: local runs and
 * the tests use exactly these example values on purpose.
 */
export function productionConfigProblems(
  env: Pick<Env, "ENVIRONMENT" | "SESSION_SECRET" | "OAUTH_ISSUER" | "ADMIN_EMAILS" | "SITE_URL" | "SMTP_HOST" | "SMTP_SECURITY" | "MAIL_FROM">,
): string[] {
  if (env.ENVIRONMENT !== "production") return [];
  const problems: string[] = [];
  const secrets = cookieSecrets(env);
  if (!secrets.length) problems.push("SESSION_SECRET is not set");
  if (secrets.includes(EXAMPLE_SESSION_SECRET)) problems.push("SESSION_SECRET is the example value of .dev.vars.example");
  if (secrets.some((s) => s.length < 32)) problems.push("SESSION_SECRET is shorter than 32 characters");
  if (!/^https:\/\//i.test(env.OAUTH_ISSUER?.trim() ?? "")) problems.push("OAUTH_ISSUER is not an https: URL");
  if (!/^https:\/\//i.test(env.SITE_URL?.trim() ?? "")) problems.push("SITE_URL is not an https: URL");
  const admins = (env.ADMIN_EMAILS ?? "").split(",").map((e) => e.trim().toLowerCase());
  if (admins.includes(EXAMPLE_ADMIN)) problems.push(`ADMIN_EMAILS lists the example address ${EXAMPLE_ADMIN}`);
  // Mail would queue and never leave: the local server is not there, an example domain has no
  // provider, and receivers reject a sender whose domain the group does not control.
  const smtpHost = env.SMTP_HOST?.trim() ?? "";
  if (!smtpHost || isLoopbackHost(smtpHost) || isExampleDomain(smtpHost)) problems.push("SMTP_HOST is empty, loopback or an example host");
  if (env.SMTP_SECURITY?.trim() === "off") problems.push('SMTP_SECURITY is "off" (the login and mail would cross the internet in clear)');
  const from = parseMailFrom(env.MAIL_FROM ?? "");
  if (!from || isExampleDomain(from.email.split("@")[1])) problems.push("MAIL_FROM is not a sender address on the group's own domain");
  return problems;
}
