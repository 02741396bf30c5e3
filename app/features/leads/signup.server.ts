/**
 * POST /api/leads: one action for the JSON API and the HTML forms that work without JavaScript
 * (docs/decisions/005-newsletter-and-leads.md). The checks run cheapest first: content type (415), size (413),
 * syntax (400), then the rate limit (429) is counted together with the insert in one D1 batch,
 * which answers 201 or, for a repeat, 409. Invalid fields (400) and a filled honeypot (a fake
 * success) store nothing but still count as attempts.
 */
import { redirect } from "@remix-run/cloudflare";
import { z } from "zod";
import {
  CONSENT_VERSION,
  LEAD_LIMITS,
  NEWSLETTER_TEXT as T,
  SIGNUP_FIELDS as F,
  signupAnchor,
  type SignupFieldErrors,
  type SignupResult,
} from "~/features/leads/newsletter";
import { BodyError, parseForm, readBody, type BodyKind } from "~/features/forms/body.server";
import { honeypotFilled } from "~/features/forms/honeypot";
import { recordSignup, type PublicLead } from "~/features/leads/leads.server";
import { confirmVerifiedMember, queueConfirmation, RESEND_AFTER_MS } from "~/features/leads/subscription.server";
import { carriesSession } from "~/features/auth/session.server";
import { getUser } from "~/features/auth/users.server";
import { announceMail } from "~/features/mail/outbox.server";
import { log } from "~/utils/log.server";
import { attemptFor, hitRateLimit, settleAttempt } from "~/features/forms/rate-limit.server";
import { sameOriginPath } from "~/utils/same-origin-path";
import { emailSchema, normaliseEmail } from "~/utils/mail-address";
import { signupResultCookie } from "~/features/leads/signup-result.server";
import { isSuppressed } from "~/features/privacy/suppression.server";

const SOURCE_PATTERN = new RegExp(`^[A-Za-z0-9][A-Za-z0-9_-]{0,${LEAD_LIMITS.source - 1}}$`);
const DEFAULT_SOURCE = "website";

export const signupSchema = z
  .object({
    email: emailSchema(T.invalidEmail),
    firstName: z.string({ message: T.firstNameRequired }).trim().max(LEAD_LIMITS.name, T.nameTooLong).default(""),
    lastName: z
      .string({ message: T.nameTooLong })
      .trim()
      .max(LEAD_LIMITS.name, T.nameTooLong)
      .nullish()
      .transform((v) => v || null),
    source: z.string({ message: T.invalidSource }).trim().regex(SOURCE_PATTERN, T.invalidSource).default(DEFAULT_SOURCE),
    /** Which form the visitor saw; the compact one has no first-name field (docs/decisions/003). */
    variant: z.enum(["compact", "full", "inline"]).optional().catch(undefined),
  })
  .superRefine((v, ctx) => {
    if (v.variant !== "compact" && v.firstName === "") {
      ctx.addIssue({ code: "custom", path: ["firstName"], message: T.firstNameRequired });
    }
  });

export type SignupInput = z.infer<typeof signupSchema>;

export function validateSignup(input: unknown): { ok: true; value: SignupInput } | { ok: false; errors: SignupFieldErrors } {
  const parsed = signupSchema.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, errors: parsed.error.flatten().fieldErrors as SignupFieldErrors };
}

/** Text of at most `max` characters, or null: metadata is stored as plain, bounded text. */
function text(value: unknown, max: number): string | null {
  return typeof value === "string" && value.trim() ? value.trim().slice(0, max) : null;
}

/** The same-origin page (path and query) a URL or path names, or null. */
function pagePath(value: string | null | undefined, origin: string): string | null {
  if (!value) return null;
  // A Referer is a whole URL: judge its path, and only when it is ours.
  const path = URL.canParse(value) ? (new URL(value).origin === origin ? value.slice(origin.length) || "/" : null) : value;
  return sameOriginPath(path, origin, { keepHash: false })?.slice(0, 2048) ?? null;
}

interface ParsedBody {
  fields: Record<string, unknown>;
  metadata: { userAgent: string | null; referrer: string | null; timestamp: string | null };
  honeypot: boolean;
  /** Form posts only: where to land afterwards. */
  redirectTo: string;
}

async function parseBody(kind: BodyKind, bytes: Uint8Array<ArrayBuffer>, request: Request): Promise<ParsedBody | null> {
  const origin = new URL(request.url).origin;
  const refererPath = pagePath(request.headers.get("Referer"), origin);
  const headerAgent = text(request.headers.get("User-Agent"), 512);
  if (kind === "json") {
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      return null;
    }
    if (typeof json !== "object" || json === null || Array.isArray(json)) return null;
    const body = json as Record<string, unknown>;
    const meta = (typeof body.metadata === "object" && body.metadata) || {};
    const m = meta as Record<string, unknown>;
    return {
      fields: body,
      metadata: {
        userAgent: text(m.userAgent, 512) ?? headerAgent,
        referrer: text(m.referrer, 2048),
        timestamp: text(m.timestamp, 64),
      },
      honeypot: honeypotFilled(body[F.honeypot]),
      redirectTo: refererPath ?? "/",
    };
  }
  let form: FormData;
  try {
    form = await parseForm(request, bytes);
  } catch {
    return null;
  }
  const fields: Record<string, string> = {};
  for (const name of [F.email, F.firstName, F.lastName, F.source, F.variant]) {
    const value = form.get(name);
    if (typeof value === "string") fields[name] = value;
  }
  return {
    fields,
    metadata: { userAgent: headerAgent, referrer: null, timestamp: new Date().toISOString() },
    honeypot: honeypotFilled(form.get(F.honeypot)),
    redirectTo: pagePath(String(form.get(F.redirectTo) ?? ""), origin) ?? refererPath ?? "/",
  };
}

/** Whether the signed-in member signs up their own address, which their provider verified. */
async function isOwnVerifiedAddress(request: Request, env: Env, email: string): Promise<boolean> {
  if (!carriesSession(request)) return false;
  const user = await getUser(request, env);
  return Boolean(user?.emailVerified && user.email && normaliseEmail(user.email) === email);
}

type WithoutSource<T> = T extends unknown ? Omit<T, "source"> : never;

const json = (body: unknown, status: number, headers?: HeadersInit) => Response.json(body, { status, headers });

/** What the visitor typed, as strings, to give back with the errors. */
function typedValues(fields: Record<string, unknown>) {
  const s = (v: unknown) => (typeof v === "string" ? v : "");
  return { email: s(fields[F.email]), firstName: s(fields[F.firstName]), lastName: s(fields[F.lastName]) };
}

export async function handleSignup(request: Request, env: Env, ctx?: Pick<ExecutionContext, "waitUntil">) {
  let read: Awaited<ReturnType<typeof readBody>>;
  try {
    read = await readBody(request, { maxBytes: LEAD_LIMITS.bodyBytes, accept: ["json", "form"] });
  } catch (error) {
    if (error instanceof BodyError) return error.toResponse();
    throw error;
  }
  const { kind, bytes } = read;
  const body = await parseBody(kind, bytes, request);
  if (!body) {
    return json({ message: kind === "json" ? "Malformed JSON: send a JSON object." : "Malformed form data." }, 400);
  }

  const rawSource = typeof body.fields[F.source] === "string" ? (body.fields[F.source] as string).trim() : "";
  // Form posts land back on their page, at the block that was used, with the result.
  const answerForm = async (result: WithoutSource<SignupResult>) => {
    const source = SOURCE_PATTERN.test(rawSource) ? rawSource : DEFAULT_SOURCE;
    const cookie = await signupResultCookie(env, request, { ...result, source } as SignupResult);
    return redirect(`${body.redirectTo}#${signupAnchor(source)}`, { status: 303, headers: { "Set-Cookie": cookie } });
  };
  const typed = typedValues(body.fields);

  const attempt = await attemptFor(request, env, "signup");
  const waitUntil = ctx ? (p: Promise<unknown>) => ctx.waitUntil(p) : undefined;
  const tooMany = ({ message }: { message: string }) => {
    if (kind === "form") return answerForm({ status: "error", values: typed, errors: {}, message });
    return json({ message }, 429, { "Retry-After": String(attempt.retryAfter) });
  };

  const input = validateSignup(body.fields);
  // An erased address (docs/decisions/019-personal-data.md) is never re-added or mailed by a
  // signup: it is answered like anyone else's and, like a bot's, stores nothing.
  const discard = body.honeypot || (input.ok && (await isSuppressed(env, input.value.email)));
  // Requests that store nothing still count towards the limit (no free probing).
  if (!input.ok || discard) {
    const limit = await hitRateLimit(env.DB, attempt, waitUntil);
    if (!limit.allowed) return tooMany(limit);
  }
  if (!input.ok) {
    if (kind === "form") return answerForm({ status: "error", values: typed, errors: input.errors });
    return json({ message: "Please check the highlighted fields.", errors: input.errors }, 400);
  }
  const { email, firstName, lastName, source } = input.value;
  const now = new Date();

  let lead: PublicLead | null;
  if (discard) {
    // A bot or a suppressed address: the same success as a person, and nothing is stored.
    lead = { id: 0, email, firstName, lastName, source, subscribedAt: now.toISOString() };
  } else {
    const result = await recordSignup(
      env.DB,
      {
        email,
        firstName,
        lastName,
        source,
        userAgent: body.metadata.userAgent,
        referrer: body.metadata.referrer,
        clientTimestamp: body.metadata.timestamp,
        pagePath: kind === "form" ? body.redirectTo : pagePath(request.headers.get("Referer"), new URL(request.url).origin),
        subscribedAt: now,
        consentVersion: CONSENT_VERSION,
      },
      attempt,
    );
    const limit = await settleAttempt(env.DB, attempt, result.counts, waitUntil);
    if (!limit.allowed) return tooMany(limit);
    // A confirmed address is already on the list (409); a pending one is told the same as a first
    // signup and gets the e-mail again, at most every RESEND_AFTER_MS.
    const stored = result.lead;
    // The answer echoes what was sent, never what an earlier signup of the address stored.
    lead = stored?.status === "pending" ? { id: stored.id, email, firstName, lastName, source, subscribedAt: now.toISOString() } : null;
    if (stored && lead && (await isOwnVerifiedAddress(request, env, email))) {
      await confirmVerifiedMember(env.DB, stored.id, now.getTime());
    } else if (stored && lead && (result.started || (result.lastLinkAt ?? 0) <= now.getTime() - RESEND_AFTER_MS)) {
      // The lead is stored whatever happens to its e-mail; a repeat signup queues it again.
      try {
        const mailId = await queueConfirmation(env, stored, now.getTime());
        if (mailId !== null && ctx) announceMail(env, ctx, [mailId]);
      } catch (error) {
        log("error", "[newsletter] confirmation e-mail not queued", { error });
      }
    }
  }
  if (!lead) {
    if (kind === "form") return answerForm({ status: "already", values: typed });
    return json({ message: T.alreadySubscribed }, 409);
  }
  if (kind === "form") return answerForm({ status: "success" });
  // The row's id is sequential: it would tell anyone how many people signed up, and when.
  const { id: _id, ...created } = lead;
  return json(created, 201);
}
