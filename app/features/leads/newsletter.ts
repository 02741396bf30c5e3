/**
 * The newsletter's texts and form contract, shared by the signup component (browser) and the
 * leads API (server). The texts are the product's wording: change them here only.
 */
import type { Lead, LeadTopic } from "~/db/schema";
import { HONEYPOT_FIELD } from "~/features/forms/honeypot";
import { EMAIL_MAX_LENGTH } from "~/utils/mail-address";
export const NEWSLETTER_TEXT = {
  title: "Join Our Community",
  description: "Get news from AFX Holding Group and its ventures in your inbox.",
  submit: "Subscribe",
  submitting: "Subscribing...",
  success: "You're all set! Check your email for confirmation.",
  /** Under the success, for a signup kept while the database was down (docs/decisions/121-outages.md). */
  kept: "The confirmation e-mail may take a few minutes: your signup is kept and will be confirmed shortly.",
  invalidEmail: "Please enter a valid email address.",
  firstNameRequired: "First name is required.",
  firstNameTooLong: "Please keep the first name to 100 characters.",
  lastNameTooLong: "Please keep the last name to 100 characters.",
  invalidSource: "Source must be a short name (letters, digits, - or _, at most 40 characters).",
  alreadySubscribed: "Email already subscribed",
  /** The signup error's default message. */
  failed: "Failed to subscribe",
} as const;

export const NEWSLETTER_TOASTS = {
  // The product's words, and what is still to do: the subscription starts at the e-mail's link.
  success: {
    title: "Welcome to AFX Holding Group!",
    description: "You've successfully joined our community. A confirmation e-mail is on its way.",
  },
  already: { title: "Already Subscribed", description: "You're already part of our community!" },
  failed: { title: "Subscription Failed", description: "Please try again later.", variant: "destructive" },
} as const;

/**
 * The consent wording each form shows under its button, by version id. A lead records the id of
 * the wording it was shown (docs/decisions/016-newsletter-double-opt-in.md), so a change of words
 * is a new entry here: never edit a published one (tests/worker/newsletter-double-opt-in.test.ts).
 */
export const CONSENT_COPY = {
  "2026-11-consent-1": "We'll e-mail you a link to confirm. You can unsubscribe at any time; see our privacy policy.",
  "2026-11-alerts-1":
    "We'll e-mail you a link to confirm, then one e-mail per announcement, each with a link to stop the alerts; see our privacy policy.",
} as const;
export type ConsentVersion = keyof typeof CONSENT_COPY;
export const CONSENT_VERSION: ConsentVersion = "2026-11-consent-1";
/** What a signed-in member with a verified e-mail agrees to with the Settings switch. */
export const MEMBER_CONSENT_VERSION: ConsentVersion = CONSENT_VERSION;
/** The investor alerts' own consent wording (docs/decisions/075), for the form and the Settings switch alike. */
export const ALERTS_CONSENT_VERSION: ConsentVersion = "2026-11-alerts-1";
/** Each topic's consent wording. */
export const TOPIC_CONSENT: Record<LeadTopic, ConsentVersion> = {
  newsletter: CONSENT_VERSION,
  alerts: ALERTS_CONSENT_VERSION,
};

/** The investor-alert block's words (the newsletter block's component, its `topic` "alerts"). */
export const ALERTS_TEXT = {
  eventReminders: "Also remind me by e-mail the day before each event",
  title: "Investor alerts",
  description: "One e-mail for each news item, document or event the group publishes, of the ventures you choose.",
  /** The venture choice at signup (the preferences page changes it later). */
  ventures: "Only some ventures?",
  venturesHelp: "Tick the ones you follow; tick none for every venture and the group's own.",
  submit: "Get alerts",
  success: "Almost done: check your email and confirm your alerts.",
  /** The sender's name of every alerts e-mail (its confirmation and each alert), beside MAIL_FROM's address. */
  senderName: `AFX Holding Group Investor Alerts`,
  confirmSubject: `Confirm your investor alerts from AFX Holding Group`,
  /** The confirmation e-mail's request, to the address it went to. */
  confirmAsk: (to: string) =>
    `Please confirm that you want AFX Holding Group's investor alerts at ${to}: one e-mail for each news item, document or event the group publishes.`,
  /** What the confirmation e-mail repeats of the choice made at signup (ventures by the catalogue's names). */
  confirmChoice: (ventures: readonly string[], reminders: boolean) =>
    [
      ventures.length ? `You chose the alerts of ${ventures.join(", ")}.` : "You chose the alerts of every venture.",
      reminders ? "You also asked for a reminder the day before each event." : "",
    ]
      .filter(Boolean)
      .join(" "),
} as const;

/** The alerts block's toasts (with JavaScript): its own words, not the newsletter's. */
export const ALERTS_TOASTS = {
  success: { title: "Almost done", description: "Check your e-mail and confirm your investor alerts." },
  failed: { title: "Alerts not set up", description: "Please try again later.", variant: "destructive" },
} as const;

/** Each topic as the unsubscribe page names it: a reader of both learns which one the link ends. */
const TOPIC_NAMES: Record<LeadTopic, string> = { newsletter: "the newsletter", alerts: "investor alerts" };

/** The pages a confirmation or unsubscribe link opens. */
export const SUBSCRIPTION_TEXT = {
  confirmTitle: "Confirm your subscription",
  confirmBody: (email: string) => `Confirm that ${email} should receive news from AFX Holding Group and its ventures.`,
  confirmButton: "Confirm subscription",
  confirmedTitle: "Subscription confirmed",
  confirmedBody: "Thank you. You will receive our newsletter; every issue has a link to unsubscribe.",
  invalidTitle: "This link is not valid",
  invalidBody:
    "The confirmation link is incomplete, was already used, or is not one we sent. If you confirmed already, you are subscribed. Otherwise, sign up again below.",
  expiredTitle: "This link has expired",
  expiredBody: "Confirmation links are valid for 7 days. Sign up again below and we'll send you a new one.",
  unsubscribeTitle: "Unsubscribe from our newsletter",
  // A question until the button is pressed: a reader who closes the tab stays subscribed.
  unsubscribeQuestion: (address: string, topic: LeadTopic = "newsletter") =>
    `Unsubscribe ${address} from ${TOPIC_NAMES[topic]}?`,
  unsubscribeBody: (topic: LeadTopic = "newsletter") =>
    `Nothing changes until you press Unsubscribe. Then you will receive no more e-mails from ${TOPIC_NAMES[topic]}.`,
  unsubscribeButton: "Unsubscribe",
  alreadyUnsubscribedTitle: "You are already unsubscribed",
  alreadyUnsubscribedBody: (address: string, topic: LeadTopic = "newsletter") =>
    `${address} is not subscribed to ${TOPIC_NAMES[topic]}: you will receive no more e-mails from it. Changed your mind? Sign up again below.`,
  unsubscribedTitle: "You are unsubscribed",
  unsubscribedBody: "You will receive no more newsletter e-mails from us. Changed your mind? Sign up again below.",
  /** The topic the pages speak of (the query `?topic=alerts` of the outcome pages). */
  topic: "newsletter" as LeadTopic,
  badUnsubscribeTitle: "This unsubscribe link is not valid",
  badUnsubscribeBody:
    "The link is incomplete or not one we sent. Use the link in the latest e-mail from us, or write to us from the Help page.",
};

/**
 * The same pages for investor alerts: every page of a topic names that topic. A text not given
 * here is the same for both (the invalid and expired links, the unsubscribe question).
 */
const ALERTS_SUBSCRIPTION_TEXT = {
  confirmTitle: "Confirm your investor alerts",
  confirmBody: (email: string) =>
    `Confirm that ${email} should receive AFX Holding Group's investor alerts: one e-mail for each news item, document or event the group publishes.`,
  confirmButton: "Confirm investor alerts",
  confirmedTitle: "Investor alerts confirmed",
  confirmedBody:
    "Thank you. You will receive an e-mail for each news item, document or event the group publishes; every alert has a link to unsubscribe and one to your preferences.",
  unsubscribeTitle: "Unsubscribe from investor alerts",
  unsubscribedTitle: "You are unsubscribed from investor alerts",
  unsubscribedBody: "You will receive no more investor alerts from us. Changed your mind? Sign up again below.",
  topic: "alerts" as LeadTopic,
};

/**
 * The subscription pages' words for a topic. (Spread here, not at module level: a spread there is a
 * side effect to the bundler, which would then load the signup form's chunk on every page.)
 */
export const subscriptionText = (topic: LeadTopic | null | undefined): typeof SUBSCRIPTION_TEXT =>
  topic === "alerts" ? { ...SUBSCRIPTION_TEXT, ...ALERTS_SUBSCRIPTION_TEXT } : SUBSCRIPTION_TEXT;

/** The topic an outcome page's `?topic=` names (the newsletter unless it says alerts). */
export const topicParam = (search: string): LeadTopic =>
  new URLSearchParams(search).get("topic") === "alerts" ? "alerts" : "newsletter";

/** Field limits (docs/decisions/005-newsletter-and-leads.md). */
export const LEAD_LIMITS = {
  email: EMAIL_MAX_LENGTH,
  name: 100,
  source: 40,
  bodyBytes: 8 * 1024,
} as const;

/** An optional text field of the signup: trimmed, stored as null when empty, refused past `max`. */
export interface OptionalTextField {
  label: string;
  max: number;
  /** The message for a value over `max`. */
  tooLong: string;
  autoComplete?: string;
}

/**
 * The signup's optional text fields, by the lead's column name: the one place to declare one (its
 * column comes from the schema). The server builds each one's rule, reads it from the form and
 * echoes it from this list (signup.server.ts); plain data, so no zod in the browser's bundle.
 * Its key is the form's field name.
 */
export const SIGNUP_TEXT_FIELDS = {
  lastName: {
    label: "Last name (optional)",
    max: LEAD_LIMITS.name,
    tooLong: NEWSLETTER_TEXT.lastNameTooLong,
    autoComplete: "family-name",
  },
} as const satisfies Partial<Record<keyof Lead, OptionalTextField>>;
export type SignupTextField = keyof typeof SIGNUP_TEXT_FIELDS;

/**
 * The form's other field names (an optional text field's is its key in SIGNUP_TEXT_FIELDS); `variant`
 * tells the server which fields the visitor was shown. Plain data, no code run on load: the footer
 * imports the form for the server render only, and a module with side effects would keep the
 * form's chunk on every page (tests/node/budgets.test.ts).
 */
export const SIGNUP_FIELDS = {
  email: "email",
  firstName: "firstName",
  source: "source",
  variant: "variant",
  /** "newsletter" (the default) or "alerts". */
  topic: "topic",
  /** The alerts form's checkbox: a reminder the day before each event (docs/decisions/097). */
  eventReminders: "eventReminders",
  /** The alerts form's venture boxes (one per venture; none ticked: all), as the preferences page names them. */
  venture: "venture",
  /** Same-origin path to land on after a form post without JavaScript (the fetcher leaves it out). */
  redirectTo: "redirectTo",
  /** Added by the fetcher, recorded with the lead: the page's referrer, the browser's clock. */
  referrer: "referrer",
  timestamp: "timestamp",
  /** The honeypot (features/forms/honeypot.ts). */
  honeypot: HONEYPOT_FIELD,
} as const;

export type NewsletterVariant = "compact" | "full" | "inline";

/** What the visitor typed into the form's text fields, as strings, under the lead's own field names. */
export type SignupValues = Record<keyof Pick<Lead, "email" | "firstName"> | SignupTextField, string>;

export type SignupFieldErrors = Partial<Record<keyof SignupValues | "source", string[]>>;

/**
 * The outcome of a form post without JavaScript, carried to the next page view (a signed cookie)
 * and shown by the signup block whose `source` matches.
 */
export type SignupResult =
  /** `kept`: stored later from the signup queue (D1 was down), so its e-mail may take a few minutes. */
  | { source: string; status: "success"; kept?: true }
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
