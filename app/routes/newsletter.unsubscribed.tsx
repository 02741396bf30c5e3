import type { MetaFunction } from "@remix-run/cloudflare";
import { SUBSCRIPTION_TEXT as T } from "~/features/leads/newsletter";
import { SubscriptionPage, subscriptionMeta } from "~/features/leads/subscription-page";

export const meta: MetaFunction = () => subscriptionMeta(T.unsubscribedTitle);

export default function Unsubscribed() {
  return (
    <SubscriptionPage title={T.unsubscribedTitle} signUpAgain>
      <p data-testid="unsubscribed">{T.unsubscribedBody}</p>
    </SubscriptionPage>
  );
}
