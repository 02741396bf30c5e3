/**
 * The newsletter signup block: one component, three variants, placed by the footer
 * ('footer'), the blog ('blog') and the exit popup ('popup').
 *
 * It is a real `<form method="post" action="/api/leads">`: without JavaScript the browser posts it,
 * the server answers 303 back to this page and the root loader hands this block its result. With
 * JavaScript the same form is sent as the JSON call of `POST /api/leads`, without navigation, and
 * the newsletter's toasts show (docs/product.md, Newsletter and leads). Validation is the server's
 * (zod + conform), so both paths show the same messages.
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Link, useLocation, useMatches, useRevalidator } from "@remix-run/react";
import { clsx } from "clsx";
import { useEffect, useRef, useState } from "react";
import {
  CONSENT_COPY,
  CONSENT_VERSION,
  LEAD_LIMITS,
  NEWSLETTER_TEXT as T,
  NEWSLETTER_TOASTS,
  SIGNUP_FIELDS as F,
  showsLeads,
  signupAnchor,
  type NewsletterVariant,
  type SignupResult,
  type SignupValues,
} from "~/features/leads/newsletter";
import { Button } from "~/components/ui/button";
import { Field, FieldErrors } from "~/components/ui/field";
import { Honeypot } from "~/components/ui/honeypot";
import { Input } from "~/components/ui/input";
import { toast } from "~/utils/toast";
import { useRootData } from "~/root-data";

export type { NewsletterVariant };

interface Props {
  variant: NewsletterVariant;
  source: string;
  className?: string;
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

export function NewsletterSignup({ variant, source, className }: Props) {
  const location = useLocation();
  const revalidator = useRevalidator();
  const matches = useMatches();
  const serverResult = useServerResult(source);
  const [done, setDone] = useState(serverResult?.status === "success");
  const [pending, setPending] = useState(false);
  const [notice, setNotice] = useState<{ text: string; tone: "info" | "error" } | null>(() =>
    serverResult?.status === "already"
      ? { text: NEWSLETTER_TOASTS.already.description, tone: "info" }
      : serverResult?.status === "error" && serverResult.message
        ? { text: serverResult.message, tone: "error" }
        : null,
  );
  const [lastResult, setLastResult] = useState<SubmissionResult | undefined>(() =>
    serverResult && "values" in serverResult
      ? asSubmissionResult(serverResult.values, serverResult.status === "error" ? serverResult.errors : {})
      : undefined,
  );
  const successRef = useRef<HTMLParagraphElement>(null);
  const anchor = signupAnchor(source);

  const [form, fields] = useForm<SignupValues>({
    id: `${anchor}-form`,
    lastResult,
    onSubmit(event, { formData }) {
      event.preventDefault();
      void subscribe(formData);
    },
  });

  async function subscribe(formData: FormData) {
    const value = (name: string) => String(formData.get(name) ?? "");
    const values: SignupValues = { email: value(F.email), firstName: value(F.firstName), lastName: value(F.lastName) };
    setPending(true);
    setNotice(null);
    try {
      const res = await fetch("/api/leads", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({
          ...values,
          source,
          variant,
          [F.honeypot]: value(F.honeypot),
          metadata: { userAgent: navigator.userAgent, referrer: document.referrer, timestamp: new Date().toISOString() },
        }),
      });
      if (res.status === 201) {
        setDone(true);
        toast({ ...NEWSLETTER_TOASTS.success });
        // A signup changes lead data: reload the page's data only where the page shows it.
        if (matches.some((m) => showsLeads(m.handle))) revalidator.revalidate();
        return;
      }
      const payload = (await res.json().catch(() => ({}))) as { message?: unknown; errors?: SubmissionResult["error"] };
      if (res.status === 400 && payload.errors) {
        setLastResult(asSubmissionResult(values, payload.errors));
        return;
      }
      setLastResult(asSubmissionResult(values));
      const message = typeof payload.message === "string" ? payload.message : T.failed;
      if (message.toLowerCase().includes("already subscribed")) {
        toast({ ...NEWSLETTER_TOASTS.already });
      } else {
        toast({ ...NEWSLETTER_TOASTS.failed });
        if (res.status === 429) setNotice({ text: message, tone: "error" });
      }
    } catch {
      toast({ ...NEWSLETTER_TOASTS.failed });
    } finally {
      setPending(false);
    }
  }

  // After a JS success the form is gone: move focus to the message so it is not lost.
  useEffect(() => {
    if (done && !serverResult) successRef.current?.focus();
  }, [done, serverResult]);

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
            {T.title}
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">{T.description}</p>
        </header>
      ) : null}
      <div role="status" aria-live="polite">
        {done ? (
          <p ref={successRef} tabIndex={-1} className="font-medium text-primary outline-none" data-testid="newsletter-success">
            {T.success}
          </p>
        ) : null}
      </div>
      {done ? null : (
        <form method="post" action="/api/leads" {...getFormProps(form)} className={clsx(boxed && "text-left")}>
          <input type="hidden" name={F.source} value={source} />
          <input type="hidden" name={F.variant} value={variant} />
          <input type="hidden" name={F.redirectTo} value={`${location.pathname}${location.search}`} />
          <Honeypot id={`${anchor}-hp`} />
          {boxed ? (
            <div className="grid gap-4">
              <div className="grid gap-4 sm:grid-cols-2">
                <Field label="First name" field={fields.firstName}>
                  <Input field={fields.firstName} autoComplete="given-name" maxLength={100} />
                </Field>
                <Field label="Last name (optional)" field={fields.lastName}>
                  <Input field={fields.lastName} autoComplete="family-name" maxLength={100} />
                </Field>
              </div>
              <Field label="Email" field={fields.email}>
                <Input field={fields.email} type="email" autoComplete="email" maxLength={LEAD_LIMITS.email} placeholder="you@example.com" />
              </Field>
              <SubmitButton pending={pending} className="w-full" />
            </div>
          ) : (
            <div>
              <div className="flex gap-2">
                <label htmlFor={fields.email.id} className="sr-only">
                  Email address
                </label>
                <Input field={fields.email} type="email" autoComplete="email" maxLength={LEAD_LIMITS.email} placeholder="Enter your email" />
                <SubmitButton pending={pending} />
              </div>
              <FieldErrors field={fields.email} className="mt-1" />
            </div>
          )}
          <Consent />
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
function Consent() {
  const [before, after] = CONSENT_COPY[CONSENT_VERSION].split(POLICY);
  return (
    <p className="mt-3 text-xs text-muted-foreground" data-consent={CONSENT_VERSION}>
      {before}
      <Link to="/legal#privacy" className="underline underline-offset-2 hover:text-foreground">
        {POLICY}
      </Link>
      {after}
    </p>
  );
}

function SubmitButton({ pending, className }: { pending: boolean; className?: string }) {
  return (
    <Button type="submit" className={clsx("shrink-0", className)} disabled={pending} aria-disabled={pending}>
      {pending ? T.submitting : T.submit}
    </Button>
  );
}
