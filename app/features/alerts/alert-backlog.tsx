import { Card } from "~/components/ui/card";
import { formatInteger } from "~/utils/format";

/** The investor alerts still going out (docs/decisions/075): shown only while there are some. */
export function AlertBacklogCard({ backlog }: { backlog: { waiting: number; preparing: number } }) {
  if (backlog.waiting === 0 && backlog.preparing === 0) return null;
  return (
    <Card as="section" heading="Investor alerts going out" className="mt-6">
      <p className="text-sm" data-testid="alert-backlog">
        <span className="font-medium">{formatInteger(backlog.waiting)}</span> alert e-mails waiting to be sent
        {backlog.preparing ? `; ${formatInteger(backlog.preparing)} alerts still being queued` : ""}. They leave at the
        mail queue&apos;s pace, within the sending quota; each news item shows its &ldquo;sent N of M&rdquo; on the News
        page.
      </p>
    </Card>
  );
}
