import type { MetaFunction } from "@remix-run/cloudflare";
import { SUBSCRIPTION_TEXT as T } from "~/features/leads/newsletter";
import { SubscriptionPage, subscriptionMeta } from "~/features/leads/subscription-page";

export const meta: MetaFunction = () => subscriptionMeta(T.confirmedTitle);

export default function SubscriptionConfirmed() {
  return (
    <SubscriptionPage title={T.confirmedTitle}>
      <p data-testid="subscription-confirmed">{T.confirmedBody}</p>
    </SubscriptionPage>
  );
}
