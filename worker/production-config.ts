import { isExampleDomain, isLoopbackHost } from "~/utils/mail-address";
import { readConfig } from "~/utils/config.server";

/** The SESSION_SECRET of `.dev.vars.example`: fine on a laptop, a forged-session key in production. */
export const EXAMPLE_SESSION_SECRET = "local-development-session-secret-change-me";
/** The MAIL_SECRET of `.dev.vars.example`. */
const EXAMPLE_MAIL_SECRET = "local-development-mail-secret-change-me";
/**
 * The secrets production needs (`wrangler secret put NAME --env production`): wrangler.toml's
 * `[env.production.secrets] required` must list exactly these (scripts/check-production.mjs), so
 * `wrangler deploy` itself refuses to upload a version while one is not set.
 */
const REQUIRED_SECRETS = ["SESSION_SECRET", "MAIL_SECRET", "OAUTH_CLIENT_SECRET"] as const;
/** The secret the "smtp" transport needs too (the Email Service needs none: its binding is the credential). */
export const SMTP_SECRET = "SMTP_PASSWORD";

/** The secrets production needs with this MAIL_TRANSPORT ("smtp" when unset, as the configuration reads it). */
export function requiredSecrets(transport: string | undefined): string[] {
  return (transport ?? "smtp").trim() === "email-service" ? [...REQUIRED_SECRETS] : [...REQUIRED_SECRETS, SMTP_SECRET];
}
/** The local administrator of `wrangler.toml`'s development vars. */
const EXAMPLE_ADMIN = "admin@example.com";
/** The local provider's client of `wrangler.toml`'s development vars. */
const LOCAL_CLIENT_ID = "afx-local";
/** How `wrangler.toml` marks a production value still to be filled in. */
const PLACEHOLDER = /^REPLACE-WITH-/i;
/** North American numbers reserved for fiction (555-0100 to 555-0199), the local default's kind. */
const FICTIONAL_PHONE = /(^|[^\d])555[\s.-]*01\d\d$/;

/**
 * What a production problem stops: "site" serves nothing (a forgeable session, sign-in for the
 * wrong people); "mail" keeps mail in the outbox while the site serves; "listing" is a placeholder
 * the site would show (a link or number nobody answers): refused before upload only.
 */
type ProblemKind = "site" | "mail" | "listing";
type Problem = { kind: ProblemKind; text: string };

/**
 * What makes this configuration unsafe, unable to send mail or still a placeholder in production
 * (`ENVIRONMENT = "production"`), as sentences for the log: secrets and names never appear in
 * them. Empty elsewhere: local runs and the tests use exactly these example values on purpose,
 * and for a configuration that does not parse (its problems come first: readConfig).
 */
export function productionProblems(env: Env): Problem[] {
  const { config } = readConfig(env);
  if (config?.environment !== "production") return [];
  const problems: Problem[] = [];
  const site = (text: string) => problems.push({ kind: "site", text });
  const mail = (text: string) => problems.push({ kind: "mail", text });
  const listing = (text: string) => problems.push({ kind: "listing", text });
  const secrets = config.sessionSecrets;
  if (!secrets.length) site("SESSION_SECRET is not set");
  if (secrets.includes(EXAMPLE_SESSION_SECRET)) site("SESSION_SECRET is the example value of .dev.vars.example");
  if (secrets.some((s) => s.length < 32)) site("SESSION_SECRET is shorter than 32 characters");
  // Unsubscribe links and the suppression list would not work at all, or be forgeable.
  const mailSecrets = [...config.mailSecrets, ...config.retiredMailSecrets];
  if (!config.mailSecrets.length) site("MAIL_SECRET is not set");
  if (mailSecrets.includes(EXAMPLE_MAIL_SECRET)) site("MAIL_SECRET is the example value of .dev.vars.example");
  if (mailSecrets.some((s) => s.length < 32)) site("MAIL_SECRET is shorter than 32 characters");
  if (!config.oauth.issuer.startsWith("https://")) site("OAUTH_ISSUER is not an https: URL");
  if (!config.siteUrl.startsWith("https://")) site("SITE_URL is not an https: URL");
  if (config.adminEmails.includes(EXAMPLE_ADMIN)) site(`ADMIN_EMAILS lists the example address ${EXAMPLE_ADMIN}`);
  const clientId = config.oauth.clientId;
  if (clientId === LOCAL_CLIENT_ID || PLACEHOLDER.test(clientId))
    site("OAUTH_CLIENT_ID is the local client or the placeholder of wrangler.toml");
  // The site shows and mails these: visitors would write to, and notifications go to, nobody.
  const domainOf = (address: string) => address.split("@")[1] ?? "";
  if (isExampleDomain(domainOf(config.contact.email))) site("CONTACT_EMAIL is an example address");
  if (isExampleDomain(domainOf(config.contact.investorEmail))) site("INVESTOR_EMAIL is an example address");
  // Mail would queue and never leave: the local server is not there, an example domain has no
  // provider, and receivers reject a sender whose domain the group does not control. The outbox
  // keeps it until the setting is fixed; the pages do not depend on it.
  const { smtp } = config;
  if (smtp) {
    if (!smtp.host || isLoopbackHost(smtp.host) || isExampleDomain(smtp.host))
      mail("SMTP_HOST is empty, loopback or an example host");
    if (smtp.security === "off") mail('SMTP_SECURITY is "off" (the login and mail would cross the internet in clear)');
    if (smtp.credentials && PLACEHOLDER.test(smtp.credentials.username))
      mail("SMTP_USER is the placeholder of wrangler.toml");
  } else if (!(env as { EMAIL?: unknown }).EMAIL) {
    mail('MAIL_TRANSPORT is "email-service" and the worker has no EMAIL binding ([[env.production.send_email]])');
  }
  if (isExampleDomain(domainOf(config.mail.from.email)))
    mail("MAIL_FROM is not a sender address on the group's own domain");
  // Shown on every page; harmless to serve, wrong to publish.
  const hostOf = (url: string) => (URL.canParse(url) ? new URL(url).hostname : "");
  if (isExampleDomain(hostOf(config.storeUrl))) listing("STORE_URL is an example address");
  if (/\/company\/example\/?$/i.test(URL.canParse(config.linkedinUrl) ? new URL(config.linkedinUrl).pathname : ""))
    listing("LINKEDIN_URL is the example company page");
  if (FICTIONAL_PHONE.test(config.contact.phone.trim())) listing("CONTACT_PHONE is a fictional 555-01xx number");
  return problems;
}

/** Production's problems of these kinds, as sentences. */
const texts = (env: Env, kinds: ProblemKind[]) =>
  productionProblems(env)
    .filter((p) => kinds.includes(p.kind))
    .map((p) => p.text);

/** What is unsafe or cannot send mail in production (the site's and the mail's problems). */
function productionConfigProblems(env: Env): string[] {
  return texts(env, ["site", "mail"]);
}

/**
 * Everything wrong with this configuration for the worker: variables that do not parse (any
 * environment: a typo fails at the first request, not deep inside one feature), then production's
 * own rules for the site and for mail.
 */
export function configProblems(env: Env): string[] {
  return readConfig(env).problems ?? productionConfigProblems(env);
}

/**
 * Why the worker must serve nothing: variables that do not parse, or production's site rules.
 * Every request asks: the rules' verdict is kept per parsed configuration (which readConfig keeps
 * per env), as the rules read nothing else the site's kind depends on.
 */
export function servingProblems(env: Env): string[] {
  const { config, problems } = readConfig(env);
  if (!config) return problems;
  let site = siteProblems.get(config);
  if (!site) siteProblems.set(config, (site = texts(env, ["site"])));
  return site;
}

const siteProblems = new WeakMap<object, string[]>();

/** Why production must not send mail (it waits in the outbox); the site serves regardless. */
export function mailProblems(env: Env): string[] {
  return texts(env, ["mail"]);
}

/** Everything `npm run check:production` refuses before an upload: every rule of every kind. */
export function predeployProblems(env: Env): string[] {
  return readConfig(env).problems ?? texts(env, ["site", "mail", "listing"]);
}
