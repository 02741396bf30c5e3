/**
 * POST /api/leads: one action for the JSON API and the HTML forms that work without JavaScript
 * (docs/decisions/005-newsletter-and-leads.md). It reads as a straight line: the request is read
 * once (content type 415, size 413, syntax 400), the fields are validated, then one call to the
 * rate limiter (429) counts the attempt and, within the limit, stores the signup in the same D1
 * batch, which answers 201 or, for a repeat, 409. Invalid fields (400) and a filled honeypot (a
 * fake success) store nothing but still count as attempts.
 */
import { redirect } from "@remix-run/cloudflare";
import type { SQL } from "drizzle-orm";
import { z } from "zod";
import {
  LEAD_LIMITS,
  TOPIC_CONSENT,
  NEWSLETTER_TEXT as T,
  SIGNUP_FIELDS as F,
  SIGNUP_TEXT_FIELDS,
  signupAnchor,
  type OptionalTextField,
  type SignupTextField,
  type SignupFieldErrors,
  type SignupResult,
  type SignupValues,
} from "~/features/leads/newsletter";
import { BodyError, parseForm, readBody, type BodyKind } from "~/features/forms/body.server";
import { honeypotFilled } from "~/features/forms/honeypot";
import { listed, toPublicLead, type PublicLead } from "~/features/leads/lead-list.server";
import { signupWrite, type SignupRecord } from "~/features/leads/signup-store.server";
import { confirmVerifiedMember, queueConfirmation, type SignupChoice } from "~/features/leads/subscription.server";
import { chooseSignupVentures } from "~/features/alerts/preferences.server";
import { VENTURE_ID } from "~/features/ventures/venture-field";
import { carriesSession } from "~/features/auth/session.server";
import { getUser } from "~/features/auth/users.server";
import { announceMail } from "~/features/mail/outbox.server";
import { log } from "~/utils/log.server";
import { limitClient, type RateLimitOutcome } from "~/features/forms/rate-limit.server";
import { sameOriginPath } from "~/utils/same-origin-path";
import { emailSchema } from "~/utils/email-schema";
import { normaliseEmail } from "~/utils/mail-address";
import { signupResultCookie } from "~/features/leads/signup-result.server";
import { NEVER_WRITTEN, suppressionCheck } from "~/features/privacy/suppression.server";
import { isSiteAddress } from "~/features/mail/site-addresses.server";
import { getDb } from "~/utils/db.server";
import { LEAD_TOPICS, type LeadTopic } from "~/db/schema";
import { keepSignup } from "~/features/leads/signup-queue.server";
import { plainPageHtml } from "~/utils/plain-page";
import { stylesheet } from "~/components/shell/stylesheet.server";
import { BARE_NO_STORE } from "~/utils/no-store";

const SOURCE_PATTERN = new RegExp(`^[A-Za-z0-9][A-Za-z0-9_-]{0,${LEAD_LIMITS.source - 1}}$`);
const DEFAULT_SOURCE = "website";

/** The optional text fields' names, which are their form fields' names too. */
export const SIGNUP_TEXT_FIELD_NAMES = Object.keys(SIGNUP_TEXT_FIELDS) as SignupTextField[];

/** The rule of an optional text field (newsletter.ts declares them): absent or blank is null. */
const optionalText = ({ max, tooLong }: OptionalTextField) =>
  z
    .string({ message: tooLong })
    .trim()
    .max(max, tooLong)
    .nullish()
    .transform((v) => v || null);

const optionalTextRules = Object.fromEntries(
  SIGNUP_TEXT_FIELD_NAMES.map((name) => [name, optionalText(SIGNUP_TEXT_FIELDS[name])]),
) as Record<SignupTextField, ReturnType<typeof optionalText>>;

export const signupSchema = z
  .object({
    email: emailSchema(T.invalidEmail),
    firstName: z.string({ message: T.firstNameRequired }).trim().max(LEAD_LIMITS.name, T.firstNameTooLong).default(""),
    ...optionalTextRules,
    source: z
      .string({ message: T.invalidSource })
      .trim()
      .regex(SOURCE_PATTERN, T.invalidSource)
      .default(DEFAULT_SOURCE),
    /** Which form the visitor saw; the compact one has no first-name field (docs/decisions/003). */
    variant: z.enum(["compact", "full", "inline"]).optional().catch(undefined),
    /** The newsletter, or the investor alerts (whose first name is optional). */
    topic: z.enum(LEAD_TOPICS, { message: "Unknown topic." }).default("newsletter"),
    /** The alerts' own opt-in to event reminders (docs/decisions/097): a ticked box, or JSON true. */
    eventReminders: z
      .unknown()
      .transform((v) => v === true || v === "on")
      .default(false),
    /** The alerts' venture choice at signup: ids (a form's repeated boxes, or a JSON array); none for all. */
    venture: z
      .preprocess(
        (v) => (typeof v === "string" ? [v] : v),
        z.array(z.string().regex(VENTURE_ID, "Please choose ventures from the list.")).max(64),
      )
      .optional()
      .transform((v) => v ?? []),
  })
  .superRefine((v, ctx) => {
    if (v.topic === "newsletter" && v.variant !== "compact" && v.firstName === "") {
      ctx.addIssue({ code: "custom", path: ["firstName"], message: T.firstNameRequired });
    }
  });

export type SignupInput = z.infer<typeof signupSchema>;

export function validateSignup(
  input: unknown,
): { ok: true; value: SignupInput } | { ok: false; errors: SignupFieldErrors } {
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
  const path = URL.canParse(value)
    ? new URL(value).origin === origin
      ? value.slice(origin.length) || "/"
      : null
    : value;
  return sameOriginPath(path, origin, { keepHash: false })?.slice(0, 2048) ?? null;
}

/** The signup request, read once: its body, and what its headers say. */
interface SignupRequest {
  kind: BodyKind;
  fields: Record<string, unknown>;
  metadata: { userAgent: string | null; referrer: string | null; timestamp: string | null };
  honeypot: boolean;
  /**
   * Where to land afterwards: set for a browser's own form post (no JavaScript), null for JSON and
   * for the signup form's fetcher, which sends no redirectTo and reads the result itself.
   */
  redirectTo: string | null;
  /** The same-origin page the signup was made on: the form's own, or the JSON caller's Referer. */
  pagePath: string | null;
  /** Whether it carries a session cookie: only then is the member looked up. */
  carriesSession: boolean;
}

/** Reads the request's body and headers, once; a Response for a body the API refuses. */
async function readSignupRequest(request: Request): Promise<SignupRequest | Response> {
  let read: Awaited<ReturnType<typeof readBody>>;
  try {
    read = await readBody(request, { maxBytes: LEAD_LIMITS.bodyBytes, accept: ["json", "form"] });
  } catch (error) {
    if (error instanceof BodyError) return error.toResponse();
    throw error;
  }
  const { kind, bytes } = read;
  const origin = new URL(request.url).origin;
  const refererPath = pagePath(request.headers.get("Referer"), origin);
  const headerAgent = text(request.headers.get("User-Agent"), 512);
  const session = carriesSession(request);
  const malformed = () =>
    json({ message: kind === "json" ? "Malformed JSON: send a JSON object." : "Malformed form data." }, 400);
  if (kind === "json") {
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      return malformed();
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) return malformed();
    const fields = body as Record<string, unknown>;
    const m = ((typeof fields.metadata === "object" && fields.metadata) || {}) as Record<string, unknown>;
    return {
      kind,
      fields,
      metadata: {
        userAgent: text(m.userAgent, 512) ?? headerAgent,
        referrer: text(m.referrer, 2048),
        timestamp: text(m.timestamp, 64),
      },
      honeypot: honeypotFilled(fields[F.honeypot]),
      redirectTo: null,
      pagePath: refererPath,
      carriesSession: session,
    };
  }
  let form: FormData;
  try {
    form = await parseForm(request, bytes);
  } catch {
    return malformed();
  }
  const fields: Record<string, string> = {};
  for (const name of [
    F.email,
    F.firstName,
    ...SIGNUP_TEXT_FIELD_NAMES,
    F.source,
    F.variant,
    F.topic,
    F.eventReminders,
  ]) {
    const value = form.get(name);
    if (typeof value === "string") fields[name] = value;
  }
  const ventures = form.getAll(F.venture).filter((v): v is string => typeof v === "string");
  const redirectTo = form.has(F.redirectTo)
    ? (pagePath(String(form.get(F.redirectTo)), origin) ?? refererPath ?? "/")
    : null;
  return {
    kind,
    fields: ventures.length ? { ...fields, [F.venture]: ventures } : fields,
    metadata: {
      userAgent: headerAgent,
      // Only the fetcher knows these (the signup form adds them when it sends).
      referrer: text(form.get(F.referrer), 2048),
      timestamp: text(form.get(F.timestamp), 64) ?? new Date().toISOString(),
    },
    honeypot: honeypotFilled(form.get(F.honeypot)),
    redirectTo,
    pagePath: redirectTo ?? refererPath,
    carriesSession: session,
  };
}

type WithoutSource<T> = T extends unknown ? Omit<T, "source"> : never;

const json = (body: unknown, status: number, headers?: HeadersInit) => Response.json(body, { status, headers });

/**
 * The signup's answers: JSON for the API; for a browser's own form post, a 303 back to its page, at
 * the block that was used, with the result in a one-shot cookie; for the signup form's fetcher the
 * same result as JSON, under the API's status code.
 */
function signupAnswers(request: Request, env: Env, read: SignupRequest) {
  const s = (v: unknown) => (typeof v === "string" ? v : "");
  // What the visitor typed, as strings, to give back with the errors.
  const values: SignupValues = {
    email: s(read.fields[F.email]),
    firstName: s(read.fields[F.firstName]),
    ...(Object.fromEntries(SIGNUP_TEXT_FIELD_NAMES.map((name) => [name, s(read.fields[name])])) as Record<
      SignupTextField,
      string
    >),
  };
  const form = async (result: WithoutSource<SignupResult>, status: number, headers?: HeadersInit) => {
    const rawSource = s(read.fields[F.source]).trim();
    const source = SOURCE_PATTERN.test(rawSource) ? rawSource : DEFAULT_SOURCE;
    if (read.redirectTo === null) return json({ ...result, source }, status, headers);
    const cookie = await signupResultCookie(env, request, { ...result, source } as SignupResult);
    return redirect(`${read.redirectTo}#${signupAnchor(source)}`, { status: 303, headers: { "Set-Cookie": cookie } });
  };
  const isForm = read.kind === "form";
  return {
    tooMany: ({ message, retryAfter }: RateLimitOutcome) => {
      const headers = { "Retry-After": String(retryAfter) };
      return isForm
        ? form({ status: "error", values, errors: {}, message }, 429, headers)
        : json({ message }, 429, headers);
    },
    invalid: (errors: SignupFieldErrors) =>
      isForm
        ? form({ status: "error", values, errors }, 400)
        : json({ message: "Please check the highlighted fields.", errors }, 400),
    already: () => (isForm ? form({ status: "already", values }, 409) : json({ message: T.alreadySubscribed }, 409)),
    // The row's id is sequential: it would tell anyone how many people signed up, and when.
    created: ({ id: _id, ...created }: PublicLead) => (isForm ? form({ status: "success" }, 201) : json(created, 201)),
    // Kept in the signup queue while D1 is down: 202, and the line that its e-mail may take a few
    // minutes. A browser's own form post gets the success page here, not a 303: the page it came
    // from needs the database to render.
    kept: () => {
      if (!isForm) return json({ message: `${T.success} ${T.kept}`, email: values.email, status: "kept" }, 202);
      const rawSource = s(read.fields[F.source]).trim();
      const source = SOURCE_PATTERN.test(rawSource) ? rawSource : DEFAULT_SOURCE;
      if (read.redirectTo === null) return json({ status: "success", kept: true, source }, 202);
      const back = read.redirectTo;
      return new Response(
        plainPageHtml(stylesheet, {
          title: "You're all set",
          paragraphs: [T.success, T.kept],
          links: [{ href: back, text: "Back to the page" }],
        }),
        { status: 202, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": BARE_NO_STORE } },
      );
    },
  };
}

/**
 * After a new or repeated signup of a pending address: a signed-in member's own, provider-verified
 * address is confirmed at once; anyone else gets the confirmation e-mail, at most every
 * RESEND_AFTER_MS (queueConfirmation's own condition decides, so every pending signup does the
 * same work). The lead is stored whatever happens to its e-mail.
 */
async function followUp(
  request: Request,
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil"> | undefined,
  read: SignupRequest,
  stored: Pick<PublicLead, "id" | "email"> & { topic: LeadTopic; choice?: SignupChoice },
  now: number,
  pacedUntil: number | null,
): Promise<void> {
  const member = read.carriesSession ? await getUser(request, env) : null;
  if (member?.emailVerified && member.email && normaliseEmail(member.email) === stored.email) {
    await confirmVerifiedMember(getDb(env), stored.id, now);
    return;
  }
  try {
    // Past the ceiling (or the block's share) the e-mail waits in the outbox for its paced time,
    // which the Cron Trigger keeps; otherwise the mail queue sends it within seconds.
    const mailId = await queueConfirmation(env, stored, now, { notBefore: pacedUntil ?? now });
    if (mailId !== null && ctx && pacedUntil === null) announceMail(env, ctx, [mailId]);
  } catch (error) {
    log("error", "[newsletter] confirmation e-mail not queued", { error });
  }
}

/**
 * No lead at all (ids start at 1): the confirmation's statements for it write nothing, so a
 * discarded signup makes the same round trips as a stored one.
 */
const NO_LEAD = 0;

export async function handleSignup(request: Request, env: Env, ctx?: Pick<ExecutionContext, "waitUntil">) {
  const read = await readSignupRequest(request);
  if (read instanceof Response) return read;
  const answer = signupAnswers(request, env, read);
  const now = new Date();
  const input = validateSignup(read.fields);
  const record = input.ok ? signupRecord(input.value, read, now) : null;
  let stored = false;
  try {
    return await storeSignup(request, env, ctx, read, answer, input, record, now, () => (stored = true));
  } catch (error) {
    // D1 failed before the signup was written (docs/decisions/121-outages.md): an invalid one is
    // told so (uncounted), a bot's is answered as kept, and a valid one waits in the signup queue,
    // to be written with its confirmation e-mail once D1 answers. Failing after the write, or with
    // the queue down too, it is the error it is.
    if (stored) throw error;
    if (!input.ok) return answer.invalid(input.errors);
    if (!read.honeypot && !isSiteAddress(env, record!.email)) await keepSignup(env, record!);
    log("warn", "[newsletter] D1 failed: signup kept in the signup queue", { error });
    return answer.kept();
  }
}

/** The signup's way through D1: the limiter's batch with the suppression check and the write, then the confirmation. */
async function storeSignup(
  request: Request,
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil"> | undefined,
  read: SignupRequest,
  answer: ReturnType<typeof signupAnswers>,
  input: ReturnType<typeof validateSignup>,
  record: SignupRecord | null,
  now: Date,
  written: () => void,
) {
  // An erased, "not me" or complained address (docs/decisions/019-personal-data.md) is never
  // re-added or mailed by a signup: like a bot's, it stores nothing, and nothing a client sees
  // (status, body, headers, Server-Timing's phases) tells it from a new address. It runs the same
  // statements under a guard that never holds, then the same confirmation batch, for no lead.
  // The site's own addresses (CONTACT_EMAIL…) are ignored the same way: a confirmation e-mail to
  // the contact inbox would carry an unsubscribe link anyone there might click.
  const ignored = read.honeypot || (input.ok && isSiteAddress(env, input.value.email));
  // The list is read in the limiter's batch, where it also guards the write: one round trip, one
  // transaction (docs/decisions/125), and its answer is the batch's last result.
  const check = input.ok && !ignored ? await suppressionCheck(env, input.value.email) : NEVER_WRITTEN;
  const store = record ? signupWrite(getDb(env), record) : null;
  const write = store && ((guard: SQL) => [...store.statements(check.unless(guard)), check.answer]);

  // One call: every attempt counts, stored or not (no free probing); the lead is written in the
  // limiter's batch, only within the limit.
  const limit = await limitClient(request, env, "signup", ctx && ((p) => ctx.waitUntil(p)), write ?? undefined);
  written();
  if (!limit.allowed) return answer.tooMany(limit);
  if (!input.ok) return answer.invalid(input.errors);
  const onList = limit.results.at(-1) as D1Result<{ suppressed: number }> | undefined;
  const discard = ignored || Boolean(onList?.results[0]?.suppressed);

  // The answer echoes what was sent, never what an earlier signup of the address stored.
  const echo = (id: number) => toPublicLead(listed(id, record!));
  /** As a new address, for no lead: the same confirmation batch, writing nothing, mailing nobody. */
  const asNewAddress = async () => {
    await queueConfirmation(env, { id: NO_LEAD, email: record!.email, topic: record!.topic }, now.getTime(), {
      notBefore: limit.pacedUntil ?? now.getTime(),
    });
    return answer.created(echo(NO_LEAD));
  };
  if (discard) return asNewAddress();

  // A confirmed address is already on the newsletter (409); a pending one is told the same as a
  // first signup and gets the e-mail again, at most every RESEND_AFTER_MS. The investor alerts'
  // list is never told (075): a confirmed alerts subscriber is answered as a new address, no mail.
  const { lead } = store!.outcome(limit.results);
  if (lead?.status !== "pending") return record!.topic === "alerts" ? asNewAddress() : answer.already();
  // The alerts' venture choice at signup, on the pending lead only (a confirmed one keeps its own).
  const ventures =
    record!.topic === "alerts" ? await chooseSignupVentures(getDb(env), lead.id, input.value.venture) : [];
  await followUp(
    request,
    env,
    ctx,
    read,
    { ...lead, topic: record!.topic, choice: { ventures, reminders: record!.eventReminders } },
    now.getTime(),
    limit.pacedUntil,
  );
  return answer.created(echo(lead.id));
}

/** The lead a valid signup stores, with its metadata and consent record. */
function signupRecord(
  { variant: _, venture: _v, ...fields }: SignupInput,
  read: SignupRequest,
  now: Date,
): SignupRecord {
  return {
    ...fields,
    // Reminders are an alerts subscriber's: a newsletter signup never carries them.
    eventReminders: fields.topic === "alerts" && fields.eventReminders,
    userAgent: read.metadata.userAgent,
    referrer: read.metadata.referrer,
    clientTimestamp: read.metadata.timestamp,
    pagePath: read.pagePath,
    subscribedAt: now,
    consentVersion: TOPIC_CONSENT[fields.topic],
    // A new record: an address that comes back after unsubscribing is handed off again.
    handedOffAt: null,
  };
}
