/**
 * Daily signups over the last 30 days as a small bar chart in plain SVG (no chart library; only
 * the leads dashboard imports it, so no other page's bundle carries it).
 */
export function GrowthChart({ daily }: { daily: { date: string; count: number }[] }) {
  const width = 300;
  const height = 80;
  const gap = 2;
  const max = Math.max(1, ...daily.map((d) => d.count));
  const total = daily.reduce((sum, d) => sum + d.count, 0);
  const barWidth = width / daily.length - gap;
  const peak = daily.reduce((best, d) => (d.count > best.count ? d : best), daily[0] ?? { date: "", count: 0 });
  const label =
    total === 0
      ? "No signups in the last 30 days."
      : `Daily signups over the last 30 days: ${total} in total, at most ${peak.count} on ${peak.date}.`;
  return (
    <figure className="mb-4">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={label}
        className="h-24 w-full"
        preserveAspectRatio="none"
        data-testid="growth-chart"
      >
        {daily.map((d, i) => {
          const h = d.count === 0 ? 1 : Math.max(2, (d.count / max) * (height - 4));
          return (
            <rect
              key={d.date}
              x={i * (barWidth + gap)}
              y={height - h}
              width={barWidth}
              height={h}
              rx={1}
              className={d.count === 0 ? "fill-muted" : "fill-primary"}
            >
              <title>{`${d.date}: ${d.count}`}</title>
            </rect>
          );
        })}
      </svg>
      <figcaption className="mt-1 flex justify-between text-xs text-muted-foreground">
        <span>{daily[0]?.date}</span>
        <span>{total} in 30 days</span>
        <span>{daily.at(-1)?.date}</span>
      </figcaption>
    </figure>
  );
}
