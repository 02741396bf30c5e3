/**
 * The newsletter's texts and form contract, shared by the signup component (browser) and the
 * leads API (server). The texts are the product's wording: change them here only.
 */
import { HONEYPOT_FIELD } from "~/features/forms/honeypot";
export const NEWSLETTER_TEXT = {
  title: "Join Our Community",
  description: "Get news from AFX Holding Group and its ventures in your inbox.",
  submit: "Subscribe",
  submitting: "Subscribing...",
  success: "You're all set! Check your email for confirmation.",
  invalidEmail: "Please enter a valid email address.",
  firstNameRequired: "First name is required.",
  nameTooLong: "Please use at most 100 characters.",
  invalidSource: "Source must be a short name (letters, digits, - or _, at most 40 characters).",
  alreadySubscribed: "Email already subscribed",
  /** The signup error's default message. */
  failed: "Failed to subscribe",
} as const;

export const NEWSLETTER_TOASTS = {
  success: { title: "Welcome to AFX Holding Group!", description: "You've successfully joined our community." },
  already: { title: "Already Subscribed", description: "You're already part of our community!" },
  failed: { title: "Subscription Failed", description: "Please try again later.", variant: "destructive" },
} as const;

/** Field limits (docs/decisions/005-newsletter-and-leads.md). */
export const LEAD_LIMITS = {
  email: 254,
  name: 100,
  source: 40,
  bodyBytes: 8 * 1024,
} as const;

/** The form's field names; `variant` tells the server which fields the visitor was shown. */
export const SIGNUP_FIELDS = {
  email: "email",
  firstName: "firstName",
  lastName: "lastName",
  source: "source",
  variant: "variant",
  /** Same-origin path to land on after a form post without JavaScript. */
  redirectTo: "redirectTo",
  /** The honeypot (features/forms/honeypot.ts). */
  honeypot: HONEYPOT_FIELD,
} as const;

/**
 * A route whose page shows lead data (the dashboard, the settings switch) says so with
 * `export const handle = SHOWS_LEADS`: after a signup only such a page reloads its data.
 */
export const SHOWS_LEADS = { showsLeads: true } as const;

export function showsLeads(handle: unknown): boolean {
  return typeof handle === "object" && handle !== null && (handle as { showsLeads?: unknown }).showsLeads === true;
}

export type NewsletterVariant = "compact" | "full" | "inline";

export type SignupFieldErrors = Partial<Record<"email" | "firstName" | "lastName" | "source", string[]>>;

export interface SignupValues {
  email: string;
  firstName: string;
  lastName: string;
}

/**
 * The outcome of a form post without JavaScript, carried to the next page view (a signed cookie)
 * and shown by the signup block whose `source` matches.
 */
export type SignupResult =
  | { source: string; status: "success" }
  | { source: string; status: "already"; values: SignupValues }
  | {
      source: string;
      status: "error";
      /** What the visitor typed, so nothing is lost. */
      values: SignupValues;
      errors: SignupFieldErrors;
      /** A form-level message (too many attempts, ...). */
      message?: string;
    };

/** The element id of a signup block, also the fragment a no-JS post returns to. */
export const signupAnchor = (source: string) => `newsletter-${source}`;
