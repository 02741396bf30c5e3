import type { ReactNode } from "react";
import { Card } from "~/components/ui/card";
import { Skeleton } from "~/components/ui/skeleton";
import { formatInteger } from "~/utils/format";

/** One figure; `value` null draws its skeleton while the statistics stream in. */
export function StatCard({
  label,
  value,
  detail,
  testId = `stat-${label.toLowerCase().replaceAll(" ", "-")}`,
}: {
  label: string;
  value: string | null;
  detail?: ReactNode;
  testId?: string;
}) {
  return (
    <Card>
      {value === null ? (
        <>
          <Skeleton className="h-4 w-24" />
          <Skeleton className="mt-3 h-8 w-16" />
        </>
      ) : (
        <>
          <p className="text-sm text-muted-foreground">{label}</p>
          <p className="mt-1 text-3xl font-bold" data-testid={testId}>
            {value}
          </p>
          {detail ? <p className="mt-1 text-xs text-muted-foreground">{detail}</p> : null}
        </>
      )}
    </Card>
  );
}

/** "Leads by Source": each source's share of the subscribers, as a labelled progress bar. */
export function SourceShares({
  sources,
  total,
}: {
  sources: readonly { source: string; count: number }[];
  total: number;
}) {
  if (sources.length === 0) return <p className="text-sm text-muted-foreground">No subscribers yet</p>;
  return (
    <ul className="grid grid-cols-1 gap-4">
      {sources.map(({ source, count }) => {
        const percent = (count / total) * 100;
        return (
          <li key={source} data-testid="source-row">
            <div className="flex items-baseline justify-between gap-2 text-sm">
              <span className="font-medium">{source}</span>
              <span
                className="text-muted-foreground"
                data-testid="source-count"
              >{`${percent.toFixed(1)}% · ${formatInteger(count)}`}</span>
            </div>
            <div
              role="progressbar"
              aria-label={`${source}: share of subscribers`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Number(percent.toFixed(1))}
              className="mt-1.5 h-2 overflow-hidden rounded-full bg-muted"
            >
              {/* An SVG's width attribute, not a style attribute, which the CSP refuses (062). */}
              <svg aria-hidden="true" className="block size-full">
                <rect width={`${percent}%`} height="100%" rx="4" className="fill-primary" />
              </svg>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
