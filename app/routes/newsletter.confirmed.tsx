import type { MetaFunction } from "@remix-run/cloudflare";
import { useLocation } from "@remix-run/react";
import { subscriptionText, topicParam } from "~/features/leads/newsletter";
import { SubscriptionPage, subscriptionMeta } from "~/features/leads/subscription-page";

// `?topic=alerts` after confirming investor alerts: the page names the topic confirmed.
export const meta: MetaFunction = ({ location }) =>
  subscriptionMeta(subscriptionText(topicParam(location.search)).confirmedTitle);

export default function SubscriptionConfirmed() {
  const T = subscriptionText(topicParam(useLocation().search));
  return (
    <SubscriptionPage title={T.confirmedTitle}>
      <p data-testid="subscription-confirmed">{T.confirmedBody}</p>
    </SubscriptionPage>
  );
}
