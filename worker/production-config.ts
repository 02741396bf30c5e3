import { isExampleDomain, isLoopbackHost } from "~/utils/mail-address";
import { readConfig } from "~/utils/config.server";

/** The SESSION_SECRET of `.dev.vars.example`: fine on a laptop, a forged-session key in production. */
export const EXAMPLE_SESSION_SECRET = "local-development-session-secret-change-me";
/** The MAIL_SECRET of `.dev.vars.example`. */
export const EXAMPLE_MAIL_SECRET = "local-development-mail-secret-change-me";
/** The local administrator of `wrangler.toml`'s development vars. */
const EXAMPLE_ADMIN = "admin@example.com";
/** The local provider's client of `wrangler.toml`'s development vars. */
const LOCAL_CLIENT_ID = "afx-local";
/** How `wrangler.toml` marks a production value still to be filled in. */
const PLACEHOLDER = /^REPLACE-WITH-/i;

/**
 * What makes this configuration unsafe (or unable to send mail) in production (`ENVIRONMENT = "production"`), as
 * sentences for the log: secrets and names never appear in them. Empty elsewhere: local runs and
 * the tests use exactly these example values on purpose. A configuration that does not parse at
 * all answers with its problems (configProblems) before these are asked.
 */
export function productionConfigProblems(env: Env): string[] {
  const { config } = readConfig(env);
  if (config?.environment !== "production") return [];
  const problems: string[] = [];
  const secrets = config.sessionSecrets;
  if (!secrets.length) problems.push("SESSION_SECRET is not set");
  if (secrets.includes(EXAMPLE_SESSION_SECRET)) problems.push("SESSION_SECRET is the example value of .dev.vars.example");
  if (secrets.some((s) => s.length < 32)) problems.push("SESSION_SECRET is shorter than 32 characters");
  // Unsubscribe links and the suppression list would not work at all, or be forgeable.
  const mailSecrets = config.mailSecrets;
  if (!mailSecrets.length) problems.push("MAIL_SECRET is not set");
  if (mailSecrets.includes(EXAMPLE_MAIL_SECRET)) problems.push("MAIL_SECRET is the example value of .dev.vars.example");
  if (mailSecrets.some((s) => s.length < 32)) problems.push("MAIL_SECRET is shorter than 32 characters");
  if (!config.oauth.issuer.startsWith("https://")) problems.push("OAUTH_ISSUER is not an https: URL");
  if (!config.siteUrl.startsWith("https://")) problems.push("SITE_URL is not an https: URL");
  if (config.adminEmails.includes(EXAMPLE_ADMIN)) problems.push(`ADMIN_EMAILS lists the example address ${EXAMPLE_ADMIN}`);
  const clientId = config.oauth.clientId;
  if (clientId === LOCAL_CLIENT_ID || PLACEHOLDER.test(clientId)) problems.push("OAUTH_CLIENT_ID is the local client or the placeholder of wrangler.toml");
  // The site shows and mails these: visitors would write to, and notifications go to, nobody.
  const domainOf = (address: string) => address.split("@")[1] ?? "";
  if (isExampleDomain(domainOf(config.contact.email))) problems.push("CONTACT_EMAIL is an example address");
  if (isExampleDomain(domainOf(config.contact.investorEmail))) problems.push("INVESTOR_EMAIL is an example address");
  // Mail would queue and never leave: the local server is not there, an example domain has no
  // provider, and receivers reject a sender whose domain the group does not control.
  const { smtp } = config;
  if (!smtp.host || isLoopbackHost(smtp.host) || isExampleDomain(smtp.host)) problems.push("SMTP_HOST is empty, loopback or an example host");
  if (smtp.security === "off") problems.push('SMTP_SECURITY is "off" (the login and mail would cross the internet in clear)');
  if (isExampleDomain(domainOf(smtp.from.email))) problems.push("MAIL_FROM is not a sender address on the group's own domain");
  return problems;
}

/**
 * Why the worker must not serve with this configuration: variables that do not parse (any
 * environment: a typo fails at the first request, not deep inside one feature), then production's
 * own rules.
 */
export function configProblems(env: Env): string[] {
  return readConfig(env).problems ?? productionConfigProblems(env);
}
