import { readConfig } from "~/utils/config.server";

/** The SESSION_SECRET of `.dev.vars.example`: fine on a laptop, a forged-session key in production. */
export const EXAMPLE_SESSION_SECRET = "local-development-session-secret-change-me";
/** The local administrator of `wrangler.toml`'s development vars. */
const EXAMPLE_ADMIN = "admin@example.com";

/**
 * What makes this configuration unsafe to serve in production (`ENVIRONMENT = "production"`), as
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
  if (!config.oauth.issuer.startsWith("https://")) problems.push("OAUTH_ISSUER is not an https: URL");
  if (!config.siteUrl.startsWith("https://")) problems.push("SITE_URL is not an https: URL");
  if (config.adminEmails.includes(EXAMPLE_ADMIN)) problems.push(`ADMIN_EMAILS lists the example address ${EXAMPLE_ADMIN}`);
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
