import { Link } from "@remix-run/react";
import { Card } from "~/components/ui/card";
import { pages } from "~/content/pages";
import type { AlertsAudience } from "~/features/alerts/preferences";
import { formatInteger } from "~/utils/format";

/**
 * Who the dashboard's subscribers go to: the newsletter's confirmed subscribers handed to its host
 * and not yet (docs/decisions/098), and the investor alerts' subscribers by venture (099).
 */
export function AudienceCards({
  handoff,
  alerts,
}: {
  handoff: { handedOff: number; notYet: number };
  alerts: AlertsAudience;
}) {
  const n = formatInteger;
  return (
    <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-2">
      <Card as="section" heading="Newsletter host">
        <p className="text-sm">
          <span className="font-medium" data-testid="stat-handed-off">
            {n(handoff.handedOff)}
          </span>{" "}
          subscribers handed off ·{" "}
          <span className="font-medium" data-testid="stat-not-handed-off">
            {n(handoff.notYet)}
          </span>{" "}
          not yet
        </p>
        <p className="mt-2 text-sm">
          <Link to={pages.subscriberHandoff.path} className="underline underline-offset-4">
            Hand them off
          </Link>
        </p>
      </Card>
      <Card as="section" heading="Investor alerts by venture">
        <p className="text-sm">
          <span className="font-medium" data-testid="stat-alerts-all">
            {n(alerts.all)}
          </span>{" "}
          get every venture&apos;s and the group&apos;s alerts; besides them, those who chose:
        </p>
        <ul className="mt-3 grid grid-cols-1 gap-1 text-sm sm:grid-cols-2" data-testid="alerts-by-venture">
          {alerts.ventures.map((v) => (
            <li key={v.id} className="flex min-w-0 justify-between gap-3">
              <span className="wrap-anywhere">{v.name}</span>
              <span className="text-muted-foreground" data-testid="stat-alerts-venture">
                {n(v.chose)}
              </span>
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}
