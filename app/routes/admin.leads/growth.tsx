import { GrowthChart } from "~/features/leads/growth-chart";
import type { PublicLead } from "~/features/leads/lead-list.server";
import { formatIsoDate } from "~/utils/format";

/** "Growth Timeline": the 30-day chart and the latest signups of those days. */
export function GrowthTimeline({
  daily,
  recent,
}: {
  daily: { date: string; count: number }[];
  recent: readonly PublicLead[];
}) {
  return (
    <>
      <GrowthChart daily={daily} />
      {recent.length === 0 ? (
        <p className="text-sm text-muted-foreground">No signups in the last 30 days</p>
      ) : (
        <ol className="grid grid-cols-1 gap-2" aria-label="Latest signups of the last 30 days">
          {recent.map((lead) => (
            <li key={lead.id} className="flex items-center justify-between gap-3 text-sm" data-testid="growth-row">
              <span className="min-w-0 truncate">
                <span className="font-medium">{lead.email}</span>{" "}
                <span className="text-muted-foreground">via {lead.source}</span>
              </span>
              <time dateTime={lead.subscribedAt} className="shrink-0 text-muted-foreground">
                {formatIsoDate(lead.subscribedAt, "medium")}
              </time>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
