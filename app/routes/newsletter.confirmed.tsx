import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { AlertPreferencesForm } from "~/features/alerts/alert-choice-fields";
import { choiceOf } from "~/features/alerts/preferences";
import { alertsLead, alertVentures, preferencesPath, readPreferencesToken } from "~/features/alerts/preferences.server";
import { subscriptionText, topicParam } from "~/features/leads/newsletter";
import { SubscriptionPage, subscriptionMeta } from "~/features/leads/subscription-page";
import { getDb } from "~/utils/db.server";
import { NO_STORE } from "~/utils/no-store";

/**
 * `?topic=alerts&preferences=<key>` after confirming investor alerts: the page names the topic
 * confirmed and, with the lead's preferences key (the mails' link's), offers its choice of
 * ventures and kinds at once, and the link to the preferences page for later.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  const token = new URL(request.url).searchParams.get("preferences") ?? "";
  const id = token ? await readPreferencesToken(env, token) : null;
  const db = getDb(env);
  const lead = id === null ? null : await alertsLead(db, { id });
  if (!lead) return json({ preferences: null });
  return json(
    {
      preferences: {
        path: preferencesPath(token),
        choice: choiceOf(lead),
        reminders: lead.eventReminders,
        ventures: await alertVentures(db),
      },
    },
    { headers: NO_STORE },
  );
}

// The page with a preferences key is private: its loader's Cache-Control goes on the document.
export { headers } from "~/utils/no-store";

export const meta: MetaFunction = ({ location }) =>
  subscriptionMeta(subscriptionText(topicParam(location.search)).confirmedTitle);

export default function SubscriptionConfirmed() {
  const T = subscriptionText(topicParam(useLocation().search));
  const { preferences } = useLoaderData<typeof loader>();
  const busy = useNavigation().state === "submitting";
  return (
    <SubscriptionPage title={T.confirmedTitle}>
      <p data-testid="subscription-confirmed">{T.confirmedBody}</p>
      {preferences ? (
        <section aria-labelledby="choose-title" className="mt-8 text-foreground">
          <h2 id="choose-title" className="text-xl font-semibold">
            Choose your alerts
          </h2>
          <p className="mt-2 text-sm text-muted-foreground">
            Which ventures and which kinds; change it any time on{" "}
            <Link to={preferences.path} className="text-primary underline underline-offset-4">
              your alert preferences
            </Link>
            , linked from every alert.
          </p>
          <AlertPreferencesForm
            action={preferences.path}
            ventures={preferences.ventures}
            choice={preferences.choice}
            reminders={preferences.reminders}
            busy={busy}
          />
        </section>
      ) : null}
    </SubscriptionPage>
  );
}
