import type { MetaFunction } from "@remix-run/cloudflare";
import { useLocation } from "@remix-run/react";
import { subscriptionText, topicParam } from "~/features/leads/newsletter";
import { SubscriptionPage, subscriptionMeta } from "~/features/leads/subscription-page";

// `?topic=alerts` after leaving investor alerts: the page names the topic left, and offers its form.
export const meta: MetaFunction = ({ location }) =>
  subscriptionMeta(subscriptionText(topicParam(location.search)).unsubscribedTitle);

export default function Unsubscribed() {
  const T = subscriptionText(topicParam(useLocation().search));
  return (
    <SubscriptionPage title={T.unsubscribedTitle} signUpAgain={T.topic}>
      <p data-testid="unsubscribed">{T.unsubscribedBody}</p>
    </SubscriptionPage>
  );
}
