/**
 * The site's configuration: every variable of wrangler.toml [vars] and the secrets, validated and
 * typed once per `env` object (an isolate reuses the same object across its requests). Code reads
 * `getConfig(env)`, never `env.NAME` strings; bindings (DB) stay on `env`.
 */
import { z } from "zod";
import { parseDomainConfig, parseVideoConfig } from "~/content/ventures";
import { parseMailFrom } from "~/utils/mail-address";

/** "a, b,,c " → ["a", "b", "c"]. */
const list = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** Marks a MAIL_SECRET value kept for lookups only (docs/decisions/060): it signs and verifies nothing. */
const RETIRED_MAIL_KEY = "retired:";

/**
 * MAIL_SECRET: "NEW,OLD,retired:LEAKED": the values in use, newest first (the first signs, all
 * verify links), and the retired ones, which only find what was keyed under them (suppression
 * entries, confirmation counts). The first value must be in use. Issues never quote a value.
 */
const mailSecret = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const entries = list(value);
    const retired = entries
      .filter((e) => e.startsWith(RETIRED_MAIL_KEY))
      .map((e) => e.slice(RETIRED_MAIL_KEY.length).trim());
    const active = entries.filter((e) => !e.startsWith(RETIRED_MAIL_KEY));
    const issue = (message: string) => ctx.addIssue({ code: "custom", message });
    if (retired.some((r) => !r)) issue(`has "${RETIRED_MAIL_KEY}" without a value after it`);
    if (entries.length && !active.length) issue("has only retired values: one in use must come first, to sign");
    else if (entries[0]?.startsWith(RETIRED_MAIL_KEY))
      issue("starts with a retired value: the first value signs, so it must be one in use");
    if (retired.some((r) => active.includes(r))) issue("lists a value both in use and retired");
    return { active, retired: retired.filter(Boolean) };
  });

const httpUrl = z
  .string()
  .trim()
  .superRefine((u, ctx) => {
    if (!URL.canParse(u)) ctx.addIssue({ code: "custom", message: "is not an absolute URL" });
    else if (!/^https?:\/\//i.test(u)) ctx.addIssue({ code: "custom", message: "is not an http: or https: URL" });
  });

/** How mail leaves (MAIL_TRANSPORT): Cloudflare's Email Service binding, or an SMTP server. */
const MAIL_TRANSPORTS = ["email-service", "smtp"] as const;

const RATE_LIMIT = /^(\d+)\s*\/\s*(\d+)(?:\s*\/\s*(\d+)(?:\s*\/\s*(\d+))?)?$/;

/**
 * LEADS_RATE_LIMIT: "attempts/seconds", "attempts/seconds/global" or
 * "attempts/seconds/global/store" (all positive integers; `store`: how many times the paced limits
 * are stored before a block or everyone is refused, docs/decisions/104).
 */
export function parseRateLimitSpec(
  value: string,
): { attempts: number; seconds: number; global?: number; store?: number } | null {
  const match = value.trim().match(RATE_LIMIT);
  if (!match) return null;
  const [attempts, seconds, global, store] = [match[1], match[2], match[3], match[4]].map((n) =>
    n === undefined ? undefined : Number(n),
  );
  if (!attempts || !seconds || global === 0 || store === 0) return null;
  return {
    attempts,
    seconds,
    ...(global === undefined ? {} : { global }),
    ...(store === undefined ? {} : { store }),
  };
}

/** 50 MiB: wrangler.toml declares it; a run without the variable gets the same. */
const DEFAULT_DOCUMENT_MAX_BYTES = 50 * 1024 * 1024;
/** 5 MiB: the largest newsletter host export the hand-off page reads (docs/decisions/098). */
const DEFAULT_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
const DEFAULT_LOGO_MAX_BYTES = 1024 * 1024;
/** 24 months: how long an investor's reading record is kept (docs/decisions/117). */
const DEFAULT_READING_RECORD_MONTHS = 24;

const schema = z.object({
  ENVIRONMENT: z.enum(["development", "production"], { message: 'is not "development" or "production"' }),
  SITE_URL: httpUrl.transform((u) => u.replace(/\/+$/, "")),
  BLOG_FEED_URL: httpUrl,
  OAUTH_ISSUER: httpUrl,
  OAUTH_CLIENT_ID: z.string().trim().min(1, "is empty"),
  // Secrets: absent in a run without .dev.vars; sign-in and sessions then stay off.
  OAUTH_CLIENT_SECRET: z
    .string()
    .optional()
    .transform((s) => s?.trim() || null),
  SESSION_SECRET: z.string().optional().transform(list),
  MAIL_SECRET: mailSecret,
  ADMIN_EMAILS: z
    .string()
    .transform((s) => list(s).map((e) => e.toLowerCase()))
    .pipe(z.array(z.string().email("lists something that is not an e-mail address"))),
  CONTACT_PHONE: z.string().trim().min(1, "is empty"),
  CONTACT_EMAIL: z.string().trim().email("is not an e-mail address"),
  INVESTOR_EMAIL: z.string().trim().email("is not an e-mail address"),
  STORE_URL: httpUrl,
  LINKEDIN_URL: httpUrl,
  LEADS_RATE_LIMIT: z.string().transform((s, ctx) => {
    const spec = parseRateLimitSpec(s);
    if (!spec)
      ctx.addIssue({
        code: "custom",
        message:
          'is not "attempts/seconds", "attempts/seconds/global" or "attempts/seconds/global/store" with positive integers, e.g. "10/600"',
      });
    return spec ?? { attempts: 0, seconds: 0 };
  }),
  // Entries with an unknown venture or a malformed value are ignored (the parsers say why).
  SUBSIDIARY_VIDEOS: z.string().optional().transform(parseVideoConfig),
  VENTURE_DOMAINS: z.string().optional().transform(parseDomainConfig),
  EMBED_CHECK: z.enum(["on", "off"], { message: 'is not "on" or "off"' }).transform((v) => v === "on"),
  // A local debugging switch, off unless set (.dev.vars): D1 statements in Server-Timing.
  SERVER_TIMING_DETAIL: z
    .enum(["on", "off"], { message: 'is not "on" or "off"' })
    .optional()
    .transform((v) => v === "on"),
  // Mail (docs/decisions/015-mail-delivery.md): how it leaves; SMTP's settings are read only for "smtp".
  MAIL_TRANSPORT: z
    .string()
    .optional()
    .transform((s) => s?.trim() || "smtp")
    .pipe(z.enum(MAIL_TRANSPORTS, { message: 'is not "email-service" or "smtp"' })),
  MAIL_FROM: z.string().transform((s, ctx) => {
    const from = parseMailFrom(s);
    if (!from) ctx.addIssue({ code: "custom", message: 'is not "Name <address>" or an address' });
    return from ?? { email: "" };
  }),
  // The largest document upload in bytes: a positive whole number up to the platform's 100 MB body limit.
  DOCUMENT_MAX_BYTES: z.preprocess(
    (v) => (v === undefined || v === "" ? DEFAULT_DOCUMENT_MAX_BYTES : v),
    z.coerce
      .number({ message: "is not a number of bytes" })
      .int("is not a whole number of bytes")
      .min(1, "is not a positive number of bytes")
      .max(100_000_000, "is over the platform's 100 MB request-body limit"),
  ),
  // The largest subscriber export the hand-off page reads, in bytes; the file is held in memory to read it.
  IMPORT_MAX_BYTES: z.preprocess(
    (v) => (v === undefined || v === "" ? DEFAULT_IMPORT_MAX_BYTES : v),
    z.coerce
      .number({ message: "is not a number of bytes" })
      .int("is not a whole number of bytes")
      .min(1, "is not a positive number of bytes")
      .max(50 * 1024 * 1024, "is over 50 MiB, more than a worker should hold in memory"),
  ),
  // The largest venture logo in bytes (docs/ventures.md): a positive whole number, 1 MiB by default.
  LOGO_MAX_BYTES: z.preprocess(
    (v) => (v === undefined || v === "" ? DEFAULT_LOGO_MAX_BYTES : v),
    z.coerce
      .number({ message: "is not a number of bytes" })
      .int("is not a whole number of bytes")
      .min(1, "is not a positive number of bytes")
      .max(100_000_000, "is over the platform's 100 MB request-body limit"),
  ),
  // Months an investor's reading record (opens, page times) is kept before the cron deletes it.
  READING_RECORD_MONTHS: z.preprocess(
    (v) => (v === undefined || v === "" ? DEFAULT_READING_RECORD_MONTHS : v),
    z.coerce
      .number({ message: "is not a number of months" })
      .int("is not a whole number of months")
      .min(1, "is not a positive number of months")
      .max(120, "is over 120 months (ten years)"),
  ),
});

/** The SMTP transport's variables, parsed only with MAIL_TRANSPORT = "smtp". */
const smtpSchema = z.object({
  SMTP_HOST: z
    .string()
    .trim()
    .regex(/^[^\s/]+$/, "is not a host name"),
  SMTP_PORT: z.coerce
    .number({ message: "is not a port number" })
    .int("is not a port number")
    .min(1, "is not a port number")
    .max(65_535, "is not a port number"),
  SMTP_SECURITY: z
    .string()
    .optional()
    .transform((s) => s?.trim() || "starttls")
    .pipe(z.enum(["starttls", "tls", "off"], { message: 'is not "starttls", "tls" or "off"' })),
  SMTP_USER: z
    .string()
    .optional()
    .transform((s) => s?.trim() || null),
  SMTP_PASSWORD: z.string().optional(),
});

function shape(v: z.output<typeof schema>, s: z.output<typeof smtpSchema> | null) {
  return {
    environment: v.ENVIRONMENT,
    /** Without a trailing slash. */
    siteUrl: v.SITE_URL,
    blogFeedUrl: v.BLOG_FEED_URL,
    oauth: { issuer: v.OAUTH_ISSUER, clientId: v.OAUTH_CLIENT_ID, clientSecret: v.OAUTH_CLIENT_SECRET },
    /** SESSION_SECRET: newest first; cookies are signed with the first and read with any. */
    sessionSecrets: v.SESSION_SECRET as readonly string[],
    /** MAIL_SECRET's values in use, newest first: the mail's keys (unsubscribe links, address records) derive from them (features/mail/keys.server.ts). */
    mailSecrets: v.MAIL_SECRET.active as readonly string[],
    /** MAIL_SECRET's `retired:` values: their keys find address records only, and verify no link. */
    retiredMailSecrets: v.MAIL_SECRET.retired as readonly string[],
    /** ADMIN_EMAILS, lower case. */
    adminEmails: v.ADMIN_EMAILS as readonly string[],
    contact: { phone: v.CONTACT_PHONE, email: v.CONTACT_EMAIL, investorEmail: v.INVESTOR_EMAIL },
    storeUrl: v.STORE_URL,
    linkedinUrl: v.LINKEDIN_URL,
    leadsRateLimit: v.LEADS_RATE_LIMIT,
    /** Venture id → YouTube video id (SUBSIDIARY_VIDEOS): read once, by the ventures' seed (docs/ventures.md). */
    videos: v.SUBSIDIARY_VIDEOS,
    /** Venture id → host name (VENTURE_DOMAINS): read once, by the ventures' seed (docs/ventures.md). */
    domains: v.VENTURE_DOMAINS,
    /** EMBED_CHECK: whether the subsidiary page asks a venture's site if it may be framed. */
    embedCheck: v.EMBED_CHECK,
    /**
     * SERVER_TIMING_DETAIL: the request's D1 statements in `Server-Timing` (app/utils/timing.server.ts).
     * Off unless set: the statements a request ran tell one address's signup from another's.
     */
    serverTimingDetail: v.SERVER_TIMING_DETAIL,
    /** DOCUMENT_MAX_BYTES: the largest PDF an admin may upload (features/documents). */
    documentMaxBytes: v.DOCUMENT_MAX_BYTES,
    /** IMPORT_MAX_BYTES: the largest newsletter host export an admin may import (features/handoff). */
    importMaxBytes: v.IMPORT_MAX_BYTES,
    /** LOGO_MAX_BYTES: the largest venture logo an admin may upload (features/ventures). */
    logoMaxBytes: v.LOGO_MAX_BYTES,
    /** READING_RECORD_MONTHS: how long room opens and page times are kept (features/engagement). */
    readingRecordMonths: v.READING_RECORD_MONTHS,
    mail: {
      /** MAIL_TRANSPORT: how mail leaves; "smtp" when unset. */
      transport: v.MAIL_TRANSPORT,
      from: v.MAIL_FROM,
    },
    /** SMTP's settings; null unless MAIL_TRANSPORT is "smtp". */
    smtp: s && {
      host: s.SMTP_HOST,
      port: s.SMTP_PORT,
      security: s.SMTP_SECURITY,
      /** Absent when SMTP_USER is empty (the local server takes no login). */
      credentials: s.SMTP_USER ? { username: s.SMTP_USER, password: s.SMTP_PASSWORD ?? "" } : undefined,
      from: v.MAIL_FROM,
    },
  };
}

export type Config = ReturnType<typeof shape>;

/** Thrown by getConfig: one sentence per bad variable, naming it but never its value (secrets). */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration (wrangler.toml [vars], .dev.vars or secrets): ${problems.join("; ")}`);
    this.name = "ConfigError";
  }
}

type Parsed = { config: Config; problems?: undefined } | { config?: undefined; problems: string[] };
const parsed = new WeakMap<object, Parsed>();

/**
 * On an env made by withBindings: the env whose variables it has. A registered symbol, because the
 * worker layer and the app's server build each bundle a copy of this module; not enumerable, so
 * an env spread with other variables is parsed as what it is.
 */
const BASE_ENV = Symbol.for("afx.baseEnv");

/**
 * `env` with some bindings replaced (a request's own D1 session: worker/server.ts). Its
 * variables are env's, so it shares env's parsed configuration rather than parsing it per request.
 */
export function withBindings(env: Env, bindings: Partial<Env>): Env {
  return Object.defineProperty({ ...env, ...bindings }, BASE_ENV, { value: baseOf(env) });
}

/** Whether `env` is one request's own (made by withBindings), not the worker's shared one. */
export const isRequestEnv = (env: Env): boolean => BASE_ENV in env;

const baseOf = (env: Env): Env => (env as { [BASE_ENV]?: Env })[BASE_ENV] ?? env;

/** The configuration, or the problems that keep it from parsing; computed once per env object. */
export function readConfig(env: Env): Parsed {
  env = baseOf(env);
  let result = parsed.get(env);
  if (!result) {
    const out = schema.safeParse(env);
    const smtp = out.data?.MAIL_TRANSPORT === "smtp" ? smtpSchema.safeParse(env) : null;
    const issues = [...(out.error?.issues ?? []), ...(smtp?.error?.issues ?? [])];
    result =
      out.success && !issues.length
        ? { config: shape(out.data, smtp?.data ?? null) }
        : {
            problems: issues.map(
              (i) =>
                `${i.path[0] ?? "?"} ${i.code === "invalid_type" && i.received === "undefined" ? "is not set" : i.message}`,
            ),
          };
    parsed.set(env, result);
  }
  return result;
}

export function getConfig(env: Env): Config {
  const { config, problems } = readConfig(env);
  if (!config) throw new ConfigError(problems);
  return config;
}

/** The configuration the browser may see: contact details and outbound links, never secrets. */
export type PublicConfig = ReturnType<typeof publicConfig>;

export function publicConfig(env: Env) {
  const { siteUrl, contact, storeUrl, linkedinUrl } = getConfig(env);
  return { siteUrl, contact, storeUrl, linkedinUrl };
}
