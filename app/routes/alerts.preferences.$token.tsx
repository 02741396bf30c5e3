import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Button } from "~/components/ui/button";
import { AlertChoiceFields } from "~/features/alerts/alert-choice-fields";
import { ALL_ALERTS, choiceFromForm, choiceOf } from "~/features/alerts/preferences";
import { alertsLead, alertVentures, readPreferencesToken, saveAlertChoice } from "~/features/alerts/preferences.server";
import { setEventReminders } from "~/features/events/reminders.server";
import { readForm } from "~/features/forms/body.server";
import { ALERTS_TEXT } from "~/features/leads/newsletter";
import { subscriptionMeta } from "~/features/leads/subscription-page";
import { maskAddress } from "~/features/mail/message";
import { displayAddress } from "~/utils/address-display.server";
import { getDb } from "~/utils/db.server";
import { NO_STORE } from "~/utils/no-store";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

const TITLE = "Your investor alerts";

/**
 * GET /alerts/preferences/<token>: the subscriber's own choice of alerts, which the confirmation
 * mail and every alert mail link (docs/decisions/099). No sign-in: the signed token is the key,
 * as the unsubscribe link's is. Its address is masked (a forwarded mail shows only its domain).
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  const db = getDb(env);
  const id = await readPreferencesToken(env, params.token ?? "");
  const lead = id === null ? null : await alertsLead(db, { id });
  const ventures = await alertVentures(db);
  if (!lead)
    return json(
      { valid: id !== null, address: null, status: null, choice: ALL_ALERTS, reminders: false, ventures },
      { status: 404, headers: NO_STORE },
    );
  return json(
    {
      valid: true,
      address: maskAddress(displayAddress(lead.email), "•••"),
      status: lead.status,
      choice: choiceOf(lead),
      reminders: lead.eventReminders,
      ventures,
    },
    { headers: NO_STORE },
  );
}

/**
 * The form's post: the ticked ventures and kinds become the choice (none ticked: all), and the
 * reminders box the lead's own consent to event reminders (docs/decisions/097).
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const { env } = context.cloudflare;
  const form = await readForm(request, { maxBytes: 4096 });
  const db = getDb(env);
  const id = await readPreferencesToken(env, params.token ?? "");
  if (id === null) return json({ saved: false }, { status: 404, headers: NO_STORE });
  const choice = choiceFromForm(
    form,
    (await alertVentures(db)).map((v) => v.id),
  );
  const saved = await saveAlertChoice(db, id, choice);
  const lead = saved ? await alertsLead(db, { id }) : null;
  if (lead) await setEventReminders(db, lead.email, form.get("eventReminders") === "on");
  return json({ saved }, { status: saved ? 200 : 404, headers: NO_STORE });
}

export { headers } from "~/utils/no-store";

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  subscriptionMeta(data?.address ? TITLE : "This link is not valid");

export default function AlertPreferences() {
  const { address, status, choice, reminders, ventures } = useLoaderData<typeof loader>();
  const saved = useActionData<typeof action>()?.saved;
  const busy = useNavigation().state === "submitting";
  if (!address)
    return (
      <section className="mx-auto max-w-xl px-4 py-16" aria-labelledby="preferences-title">
        <h1 id="preferences-title" className="text-3xl font-bold tracking-tight">
          This link is not valid
        </h1>
        <p className="mt-4 text-muted-foreground">
          The link is incomplete, not one we sent, or its alerts subscription no longer exists. Use the link in the
          latest alert e-mail, or sign up again on the <Link to="/investors">investors page</Link>.
        </p>
      </section>
    );
  return (
    <section className="mx-auto max-w-2xl px-4 py-16" aria-labelledby="preferences-title">
      <h1 id="preferences-title" className="text-3xl font-bold tracking-tight">
        {TITLE}
      </h1>
      <p className="wrap-anywhere mt-4 text-muted-foreground">
        Choose which ventures and which kinds of announcement {address} gets alerts for.
        {status === "confirmed"
          ? ""
          : status === "pending"
            ? " The alerts start once the confirmation link is followed."
            : " The alerts are off for this address; signing up again keeps this choice."}
      </p>
      <Form method="post" className="mt-8" key={`${JSON.stringify(choice)}-${reminders}`}>
        <AlertChoiceFields ventures={ventures} choice={choice}>
          <label className="mt-6 flex items-center gap-2 text-sm">
            <input type="checkbox" name="eventReminders" defaultChecked={reminders} className="size-4" />
            {ALERTS_TEXT.eventReminders}
          </label>
        </AlertChoiceFields>
        <Button type="submit" className="mt-8" disabled={busy}>
          Save preferences
        </Button>
        {saved ? (
          <p role="status" className="mt-4 text-sm">
            Saved. Your alerts follow this choice from now on.
          </p>
        ) : null}
      </Form>
    </section>
  );
}
