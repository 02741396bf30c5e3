/**
 * The "Investor alerts" signup block (/investors, /documents, the news pages): the newsletter's
 * signup form with the `alerts` topic, so one form path, one action and one double opt-in serve
 * both, each topic with its own consent record (docs/decisions/075-investor-alerts.md).
 */
import { NewsletterSignup } from "~/features/leads/newsletter-signup";

export function AlertsSignup({ source, className }: { source: string; className?: string }) {
  return <NewsletterSignup variant="full" topic="alerts" source={`alerts-${source}`} className={className} />;
}
