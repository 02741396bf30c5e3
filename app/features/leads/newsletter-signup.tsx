/**
 * The newsletter signup block: one component, three variants, placed by the footer
 * ('footer'), the blog ('blog') and the exit popup ('popup').
 *
 * One form, one action (`POST /api/leads`), one result. Without JavaScript the browser posts it, the
 * server answers 303 back to this page and the root loader hands this block its result. With
 * JavaScript a fetcher sends the same fields less `redirectTo`, so the server answers with that
 * result as data (and the API's status code), without navigation, and the newsletter's toasts show
 * (docs/product.md, Newsletter and leads). Validation is the server's (zod + conform), so both
 * paths show the same messages.
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Link, useFetcher, useLocation } from "@remix-run/react";
import { clsx } from "clsx";
import { useEffect, useMemo, useRef } from "react";
import {
  ALERTS_TEXT,
  ALERTS_TOASTS,
  CONSENT_COPY,
  TOPIC_CONSENT,
  NEWSLETTER_TEXT as T,
  NEWSLETTER_TOASTS,
  SIGNUP_FIELDS as F,
  SIGNUP_TEXT_FIELDS,
  signupAnchor,
  type ConsentVersion,
  type NewsletterVariant,
  type SignupResult,
  type SignupValues,
} from "~/features/leads/newsletter";
import { SIGNUP_ACTION } from "~/features/leads/signup-action";
import { Button } from "~/components/ui/button";
import { Field, FieldErrors } from "~/components/ui/field";
import { Honeypot } from "~/components/ui/honeypot";
import { Input } from "~/components/ui/input";
import { toast } from "~/utils/toast";
import { useRootData } from "~/root-data";
import type { LeadTopic } from "~/db/enums";
import { attemptedPath } from "~/utils/not-found-page";

export type { NewsletterVariant };

interface Props {
  variant: NewsletterVariant;
  source: string;
  /** The investor alerts' block (features/alerts/alerts-signup.tsx): its own words and consent, first name optional. */
  topic?: LeadTopic;
  className?: string;
}

/** A result, or an answer that is none (a 5xx, an empty refusal, a lost connection). */
type Outcome = SignupResult | { status: "failed" };

const FAILED: Outcome = { status: "failed" };

/** The fetcher's answer, read by its status field: never by its wording. */
function readAnswer(data: unknown): Outcome {
  const status = typeof data === "object" && data !== null && "status" in data ? data.status : undefined;
  return status === "success" || status === "already" || status === "error" ? (data as SignupResult) : FAILED;
}

/** The no-JS result meant for this block, on the page view it was made for only. */
function useServerResult(source: string): SignupResult | null {
  const result = useRootData()?.signup ?? null;
  // The first location of a visit has the key "default": later client navigations keep the root
  // data but must not show the result again.
  const initialView = useLocation().key === "default";
  return initialView && result?.source === source ? result : null;
}

function asSubmissionResult(values: SignupValues, errors: SubmissionResult["error"] = {}): SubmissionResult {
  return { status: "error", initialValue: { ...values }, error: errors };
}

/** The line under the form: a refusal's message; without JavaScript (no toasts) also a repeat's. */
function noticeFor(outcome: Outcome | null, fetched: boolean): { text: string; tone: "info" | "error" } | null {
  if (outcome?.status === "already" && !fetched) return { text: NEWSLETTER_TOASTS.already.description, tone: "info" };
  if (outcome?.status === "failed") return { text: T.failed, tone: "error" };
  if (outcome?.status === "error" && outcome.message) return { text: outcome.message, tone: "error" };
  return null;
}

export function NewsletterSignup({ variant, source, topic = "newsletter", className }: Props) {
  const alerts = topic === "alerts";
  const text = alerts ? { ...T, ...ALERTS_TEXT } : T;
  const location = useLocation();
  const fetcher = useFetcher();
  const answer = useMemo(
    () => (fetcher.data === undefined ? null : readAnswer(fetcher.data as unknown)),
    [fetcher.data],
  );
  const serverResult = useServerResult(source);
  const outcome: Outcome | null = answer ?? serverResult;
  const done = outcome?.status === "success";
  const pending = fetcher.state === "submitting";
  const notice = noticeFor(outcome, answer !== null);
  const lastResult = useMemo(
    () =>
      outcome && "values" in outcome
        ? asSubmissionResult(outcome.values, outcome.status === "error" ? outcome.errors : {})
        : undefined,
    [outcome],
  );
  const successRef = useRef<HTMLParagraphElement>(null);
  const anchor = signupAnchor(source);

  const [form, fields] = useForm<SignupValues>({
    id: `${anchor}-form`,
    lastResult,
    onSubmit(event, { formData }) {
      event.preventDefault();
      // Without redirectTo the answer comes back as data; the lead records what only the browser knows.
      formData.delete(F.redirectTo);
      formData.set(F.referrer, document.referrer);
      formData.set(F.timestamp, new Date().toISOString());
      fetcher.submit(formData, { method: "post", action: SIGNUP_ACTION });
    },
  });

  // Each answer once: its toast (each topic's own words) and, after a success (the form is gone), focus on the message.
  useEffect(() => {
    const toasts = alerts ? { ...NEWSLETTER_TOASTS, ...ALERTS_TOASTS } : NEWSLETTER_TOASTS;
    if (answer?.status === "success") {
      toast({ ...toasts.success });
      successRef.current?.focus();
    } else if (answer?.status === "already") {
      toast({ ...toasts.already });
    } else if (answer?.status === "failed" || (answer?.status === "error" && answer.message)) {
      toast({ ...toasts.failed });
    }
  }, [answer, alerts]);
  const ventures = useRootData()?.ventures ?? [];

  const boxed = variant !== "compact";
  return (
    <section
      id={anchor}
      aria-labelledby={boxed ? `${anchor}-title` : undefined}
      aria-label={boxed ? undefined : "Newsletter signup"}
      className={clsx(
        // Landing on #newsletter-… after a no-JS post: clear of the sticky header.
        "scroll-mt-24",
        // The card look written out, not cardClass: this module is a lazily loaded chunk of its own
        // (scripts/shell-chunk.ts), and a ui module it shared with the pages would be placed in it,
        // pulling the form and its libraries onto every page with a card (tests/node/budgets.test.ts).
        boxed && "rounded-xl border border-border bg-card p-6 text-card-foreground shadow-sm",
        variant === "inline" && "mx-auto max-w-md text-center",
        className,
      )}
      data-variant={variant}
    >
      {boxed ? (
        <header className="mb-4">
          <h2 id={`${anchor}-title`} className="text-xl font-semibold">
            {text.title}
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">{text.description}</p>
        </header>
      ) : null}
      <div role="status" aria-live="polite">
        {done ? (
          <p
            ref={successRef}
            tabIndex={-1}
            className="font-medium text-primary outline-none"
            data-testid="newsletter-success"
          >
            {text.success}
          </p>
        ) : null}
        {done && outcome.kept ? <p className="mt-1 text-sm text-muted-foreground">{T.kept}</p> : null}
      </div>
      {done ? null : (
        <form method="post" action={SIGNUP_ACTION} {...getFormProps(form)} className={clsx(boxed && "text-left")}>
          <input type="hidden" name={F.source} value={source} />
          <input type="hidden" name={F.variant} value={variant} />
          {alerts ? <input type="hidden" name={F.topic} value={topic} /> : null}
          {/* The page the visitor opened: a not-found page the worker drew under its own prefix names the address in the bar. */}
          <input type="hidden" name={F.redirectTo} value={`${attemptedPath(location.pathname)}${location.search}`} />
          <Honeypot id={`${anchor}-hp`} />
          {boxed ? (
            <div className="grid gap-4">
              {alerts ? (
                <Field label="First name (optional)" field={fields.firstName}>
                  <Input field={fields.firstName} autoComplete="given-name" maxLength={100} />
                </Field>
              ) : (
                <div className="grid gap-4 sm:grid-cols-2">
                  <Field label="First name" field={fields.firstName}>
                    <Input field={fields.firstName} autoComplete="given-name" maxLength={100} />
                  </Field>
                  <Field label={SIGNUP_TEXT_FIELDS.lastName.label} field={fields.lastName}>
                    <Input
                      field={fields.lastName}
                      autoComplete={SIGNUP_TEXT_FIELDS.lastName.autoComplete}
                      maxLength={SIGNUP_TEXT_FIELDS.lastName.max}
                    />
                  </Field>
                </div>
              )}
              <Field label="Email" field={fields.email}>
                <Input field={fields.email} type="email" autoComplete="email" placeholder="you@example.com" />
              </Field>
              {alerts && ventures.length ? (
                // Closed, the form stays short; open (no JavaScript needed), one box per venture.
                <details className="text-sm">
                  <summary className="min-h-6 cursor-pointer font-medium">{ALERTS_TEXT.ventures}</summary>
                  <fieldset className="mt-2 min-w-0">
                    <legend className="text-muted-foreground">{ALERTS_TEXT.venturesHelp}</legend>
                    <div className="mt-2 grid gap-1">
                      {ventures.map((v) => (
                        <label key={v.id} className="flex min-h-6 min-w-0 items-center gap-2">
                          <input type="checkbox" name={F.venture} value={v.id} className="size-4 shrink-0" />
                          <span className="wrap-anywhere">{v.name}</span>
                        </label>
                      ))}
                    </div>
                  </fieldset>
                </details>
              ) : null}
              {alerts ? (
                <label className="flex min-h-6 items-center gap-2 text-sm">
                  <input
                    id={`${anchor}-reminders`}
                    type="checkbox"
                    name={F.eventReminders}
                    className="size-4 shrink-0"
                  />
                  {ALERTS_TEXT.eventReminders}
                </label>
              ) : null}
              <SubmitButton pending={pending} label={alerts ? ALERTS_TEXT.submit : undefined} className="w-full" />
            </div>
          ) : (
            <div>
              <div className="flex gap-2">
                <label htmlFor={fields.email.id} className="sr-only">
                  Email address
                </label>
                <Input field={fields.email} type="email" autoComplete="email" placeholder="Enter your email" />
                <SubmitButton pending={pending} />
              </div>
              <FieldErrors field={fields.email} className="mt-1" />
            </div>
          )}
          <Consent version={TOPIC_CONSENT[topic]} />
          {notice ? (
            <p
              role={notice.tone === "error" ? "alert" : undefined}
              className={clsx("mt-3 text-sm", notice.tone === "error" ? "text-destructive" : "text-muted-foreground")}
              data-testid="newsletter-notice"
            >
              {notice.text}
            </p>
          ) : null}
        </form>
      )}
    </section>
  );
}

const POLICY = "privacy policy";

/** The consent wording the lead records (its version id is stored with the signup). */
function Consent({ version }: { version: ConsentVersion }) {
  const [before, after] = CONSENT_COPY[version].split(POLICY);
  return (
    <p className="mt-3 text-xs text-muted-foreground" data-consent={version}>
      {before}
      <Link to="/legal#privacy" className="underline underline-offset-2 hover:text-foreground">
        {POLICY}
      </Link>
      {after}
    </p>
  );
}

function SubmitButton({
  pending,
  label = T.submit,
  className,
}: {
  pending: boolean;
  label?: string;
  className?: string;
}) {
  return (
    <Button type="submit" className={clsx("shrink-0", className)} disabled={pending} aria-disabled={pending}>
      {pending ? T.submitting : label}
    </Button>
  );
}
