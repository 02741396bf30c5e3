import { settingsCopy as copy } from "~/content/copy";
import { eventRemindersOf, setEventReminders } from "~/features/events/reminders.server";
import { pages } from "~/content/pages";
import type { CurrentUser } from "~/features/auth/user";
import { getUser } from "~/features/auth/users.server";
import { readForm } from "~/features/forms/body.server";
import { limitClient } from "~/features/forms/rate-limit.server";
import { subscribeVerifiedMember, subscriptionStatus, unsubscribeLead } from "~/features/leads/subscription.server";
import { liftSuppression } from "~/features/privacy/suppression.server";
import { getDb } from "~/utils/db.server";
import type { LeadTopic } from "~/db/enums";
import { ALL_ALERTS, choiceFromForm, choiceOf } from "~/features/alerts/preferences";
import { alertsLead, alertVentures, saveAlertChoice } from "~/features/alerts/preferences.server";

/**
 * The Settings page's server side: what it shows of the member's account and its one save, the
 * newsletter switch. The theme and the e-mail preference live in the browser only.
 */

const NEWSLETTER_SOURCE = "settings";

type Member = CurrentUser & { email: string };

/** The signed-in member with a normalised address, or null (signed out, or no e-mail from the provider). */
async function member(request: Request, env: Env): Promise<Member | null> {
  const user = await getUser(request, env);
  const email = user?.email?.trim().toLowerCase();
  return user && email ? { ...user, email } : null;
}

/**
 * What Settings shows: the account (null signed out) and, for an address the provider vouched for
 * only, its subscriptions and alert choice. Everything keyed by the address waits for its
 * verification: an unverified account could name anyone's address, and would read their choices.
 */
export async function settingsView(request: Request, env: Env) {
  const user = await member(request, env);
  const db = getDb(env);
  const verified = user?.emailVerified ? user : null;
  const [alertsRecord, ventures, newsletter, alerts, eventReminders] = await Promise.all([
    verified ? alertsLead(db, { email: verified.email }) : null,
    alertVentures(db),
    verified ? subscriptionStatus(db, verified.email) : null,
    verified ? subscriptionStatus(db, verified.email, "alerts") : null,
    verified ? eventRemindersOf(db, verified.email) : false,
  ]);
  return {
    /** The investor's choice of alerts (docs/decisions/099), as the preferences page shows it. */
    alertChoice: alertsRecord ? choiceOf(alertsRecord) : ALL_ALERTS,
    ventures,
    account: user
      ? {
          username: [user.firstName, user.lastName].filter(Boolean).join(" ") || user.email.split("@")[0],
          email: user.email,
          emailVerified: user.emailVerified,
        }
      : null,
    newsletter: newsletter === "confirmed",
    alerts: alerts === "confirmed",
    eventReminders,
  };
}

/** The save's answer: a message for the page, with its status (and `Retry-After` when limited). */
interface SettingsSaved {
  message: string;
  status: 200 | 403 | 429;
  retryAfter?: number;
}

/**
 * "Save Changes": subscribes or unsubscribes the member's own address, as the switch says. Only an
 * address the provider vouched for may be changed by its holder, and no confirmation e-mail is
 * needed for it; the account forms' rate limit applies.
 */
export async function saveSettings(
  request: Request,
  env: Env,
  waitUntil: (p: Promise<unknown>) => void,
): Promise<SettingsSaved> {
  const form = await readForm(request, { maxBytes: 4096 });
  const user = await member(request, env);
  if (!user) {
    return {
      status: 200,
      message: "Your display settings are kept in this browser. Sign in to manage your newsletter subscription.",
    };
  }
  const limit = await limitClient(request, env, { account: user.id }, waitUntil);
  if (!limit.allowed) return { status: 429, message: limit.message, retryAfter: limit.retryAfter };
  if (!user.emailVerified) return { status: 403, message: copy.newsletterUnverified };
  const on = form.get("newsletter") === "on";
  const userAgent = request.headers.get("user-agent");
  await setSubscribed(env, user, on, userAgent);
  // The investor alerts' switch, a topic of its own: only a form that shows it changes it.
  const alerts = form.has("alertsShown") ? form.get("alerts") === "on" : null;
  if (alerts !== null) {
    await setSubscribed(env, user, alerts, userAgent, "alerts");
    // The reminders ride on the alerts lead: on only with the alerts on (docs/decisions/097).
    await setEventReminders(getDb(env), user.email, alerts && form.get("eventReminders") === "on");
  }
  // Which ventures and kinds, as the alert mails' preferences page sets them: only a form that shows them.
  if (form.has("alertChoiceShown")) {
    const db = getDb(env);
    const lead = await alertsLead(db, { email: user.email });
    if (lead)
      await saveAlertChoice(
        db,
        lead.id,
        choiceFromForm(
          form,
          (await alertVentures(db)).map((v) => v.id),
        ),
      );
  }
  const saved = on
    ? `Settings saved. ${user.email} is subscribed to our newsletter.`
    : `Settings saved. ${user.email} is not subscribed to our newsletter.`;
  return {
    status: 200,
    message: alerts === null ? saved : `${saved} Investor alerts are ${alerts ? "on" : "off"}.`,
  };
}

async function setSubscribed(env: Env, user: Member, on: boolean, userAgent: string | null, topic?: LeadTopic) {
  if (!on) return unsubscribeLead(getDb(env), { email: user.email, topic: topic ?? "newsletter" });
  // The verified owner asking again is the one thing that lifts an erased address's suppression.
  await liftSuppression(env, user.email);
  await subscribeVerifiedMember(getDb(env), {
    email: user.email,
    firstName: user.firstName?.trim() || (user.email.split("@")[0] ?? ""),
    lastName: user.lastName,
    source: NEWSLETTER_SOURCE,
    userAgent: userAgent?.slice(0, 512) ?? null,
    pagePath: pages.settings.path,
    topic,
  });
}
