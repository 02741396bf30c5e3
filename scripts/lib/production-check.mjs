// `npm run check:production` (scripts/check-production.mjs), also the first step of `npm run
// deploy`: production's configuration as wrangler itself reads it ([env.production] of
// wrangler.toml, through wrangler's own `unstable_readConfig`), judged by the worker's own zod
// schema and production rules (worker/production-config.ts, bundled by esbuild: the same
// TypeScript, not a copy), plus what only a deploy can get wrong: the database id, the
// required secrets' list, the CPU limit, the workers.dev and preview addresses, the domains. Every
// problem at once.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { build } from "esbuild";
import { unstable_readConfig } from "wrangler";
import { ROOT } from "./config.mjs";

/**
 * The worker's rules (worker/production-config.ts), loaded once: bundled by esbuild (wrangler's
 * own bundler, resolving `~` through tsconfig.json's paths) and imported from memory. Not Vite:
 * this runs in the deploy step, beside the API token, where no build tool may run (061).
 */
let rules;
async function productionRules() {
  rules ??= build({
    entryPoints: [resolve(ROOT, "worker/production-config.ts")],
    absWorkingDir: ROOT,
    bundle: true,
    format: "esm",
    platform: "node",
    write: false,
    logLevel: "error",
  }).then(
    ({ outputFiles: [file] }) => import(`data:text/javascript;base64,${Buffer.from(file.text).toString("base64")}`),
  );
  return rules;
}

/** A secrets file as `wrangler deploy --secrets-file` takes it: JSON, or NAME=value lines. */
export function readSecretsFile(path) {
  const text = readFileSync(path, "utf8");
  if (text.trimStart().startsWith("{")) return JSON.parse(text);
  const secrets = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (match) secrets[match[1]] = match[2].replace(/^(["'])(.*)\1$/, "$2");
  }
  return secrets;
}

/** The zero id of wrangler.toml's placeholders ("00000000-0000-4000-8000-00000000000N"). */
const PLACEHOLDER_ID = /^00000000-0000-4000-8000-0000000000\d\d$/;

/**
 * The problems of `[env.production]` in `config` (a wrangler configuration file), as sentences
 * naming the setting, never a secret's value. `secrets` (a secrets file's contents) are judged by
 * the same rules; without one, the secrets' values are not this check's to see (they live on the
 * worker) and only their declaration is checked: wrangler then refuses the upload itself while
 * one is not set.
 * @param {{ config?: string, secrets?: Record<string, string> }} [options]
 */
export async function productionProblems({ config = resolve(ROOT, "wrangler.toml"), secrets } = {}) {
  let wrangler;
  try {
    wrangler = unstable_readConfig({ config, env: "production" }, { hideWarnings: true });
  } catch (error) {
    return [`${config} cannot be read by wrangler: ${error instanceof Error ? error.message : error}`];
  }
  const { requiredSecrets, SMTP_SECRET, predeployProblems } = await productionRules();
  const problems = [];
  const vars = wrangler.vars ?? {};
  const emailService = (vars.MAIL_TRANSPORT ?? "").trim() === "email-service";
  const required = requiredSecrets(vars.MAIL_TRANSPORT);
  const email = (wrangler.send_email ?? []).find((b) => b.name === "EMAIL");

  // The worker's own rules over production's vars (and its EMAIL binding, as a stand-in). A secret
  // not supplied here stands in with a value its rules accept, so that only the vars (and supplied
  // secrets) are judged.
  const standIn = Object.fromEntries(required.map((name) => [name, `stand-in-for-${name}-`.padEnd(40, "x")]));
  problems.push(...predeployProblems({ ...standIn, ...vars, ...secrets, ...(email ? { EMAIL: {} } : {}) }));
  if (secrets) {
    for (const name of required) if (!(name in secrets)) problems.push(`${name} is not in the secrets file`);
  }

  const declared = wrangler.secrets?.required ?? [];
  const undeclared = required.filter((name) => !declared.includes(name));
  if (undeclared.length) problems.push(`[env.production.secrets] required does not list ${undeclared.join(", ")}`);

  // The Email Service: its binding may send only as MAIL_FROM's address (a leaked binding cannot
  // write as anyone else), and nothing of SMTP is left to look as if it were used.
  if (emailService) {
    const from = /<([^<>\s]+)>\s*$/.exec(vars.MAIL_FROM ?? "")?.[1] ?? (vars.MAIL_FROM ?? "").trim();
    const allowed = email?.allowed_sender_addresses ?? [];
    if (email && (allowed.length !== 1 || allowed[0].toLowerCase() !== from.toLowerCase())) {
      problems.push(
        `[[env.production.send_email]] EMAIL's allowed_sender_addresses is not exactly MAIL_FROM's address ${from}`,
      );
    }
    const smtpVars = Object.keys(vars).filter((name) => name.startsWith("SMTP_"));
    if (smtpVars.length)
      problems.push(`${smtpVars.join(", ")} set with MAIL_TRANSPORT = "email-service" (SMTP is not used: remove them)`);
    if (declared.includes(SMTP_SECRET) || (secrets && SMTP_SECRET in secrets))
      problems.push(
        `${SMTP_SECRET} is declared or supplied with MAIL_TRANSPORT = "email-service" (not used: remove it)`,
      );
    const consumers = (wrangler.queues?.consumers ?? []).map((c) => c.queue);
    if (!consumers.some((q) => /^afx-mail-events(-|$)/.test(q)))
      problems.push(
        "no consumer for the mail events queue (afx-mail-events-production: bounces and complaints would go unread)",
      );
  }

  const db = wrangler.d1_databases.find((d) => d.binding === "DB");
  if (!db) problems.push("[[env.production.d1_databases]] has no DB binding");
  else if (!db.database_id || PLACEHOLDER_ID.test(db.database_id))
    problems.push(
      'the DB binding\'s database_id is the placeholder (`wrangler d1 create`, docs/deploy.md, "First deploy")',
    );

  // The document library's files (docs/decisions/070): a bucket of production's own.
  const documents = (wrangler.r2_buckets ?? []).find((b) => b.binding === "DOCUMENTS");
  if (!documents?.bucket_name)
    problems.push(
      '[[env.production.r2_buckets]] has no DOCUMENTS bucket (`wrangler r2 bucket create`, docs/deploy.md, "First deploy")',
    );

  // Without it every invocation may use the plan's default of 30 s of CPU time (decision 061).
  const cpuMs = wrangler.limits?.cpu_ms;
  if (!Number.isInteger(cpuMs) || cpuMs < 1 || cpuMs > 300_000) {
    problems.push(
      "[env.production.limits] cpu_ms is not set to a whole number of ms up to 300000 (the CPU time one request may use; docs/deploy.md)",
    );
  }

  if (wrangler.workers_dev !== false)
    problems.push("workers_dev is not false (production would also answer on *.workers.dev)");
  if (wrangler.preview_urls !== false)
    problems.push("preview_urls is not false (every version would answer on a preview URL)");

  const domains = customDomains(wrangler);
  const site = URL.canParse(wrangler.vars?.SITE_URL) ? new URL(wrangler.vars.SITE_URL).hostname : null;
  if (site && !domains.includes(site)) problems.push(`routes has no Custom Domain for SITE_URL's host ${site}`);
  if (site && !domains.includes(`www.${site}`))
    problems.push(`routes has no Custom Domain for www.${site} (redirected to the apex)`);
  return problems;
}

/** The host names of `config`'s Custom Domain routes (wrangler's normalised configuration). */
export function customDomains(config) {
  return (config.routes ?? []).filter((r) => typeof r === "object" && r.custom_domain).map((r) => r.pattern);
}
