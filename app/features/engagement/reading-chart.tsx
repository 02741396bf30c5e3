/**
 * A document's pages in the room report: median seconds per page as bars and how many readers
 * reached each page beneath them, drawn as SVG in the server's HTML (no script, no chart library),
 * with the same figures in a table beside it for a screen reader and a reader without colour.
 */
import { formatSeconds, type PageFigure } from "./reading-stats";

export function ReadingChart({ title, figures }: { title: string; figures: readonly PageFigure[] }) {
  const width = 320;
  const height = 120;
  const top = 14;
  const bottom = 28;
  const slot = width / Math.max(1, figures.length);
  const barWidth = Math.max(2, slot * 0.6);
  const max = Math.max(1, ...figures.map((f) => f.medianSeconds));
  const first = figures[0]?.readers ?? 0;
  const last = figures.at(-1);
  const label =
    figures.length === 0
      ? `${title}: no pages recorded.`
      : `${title}: median seconds per page for ${figures.length} pages; ${first} ${first === 1 ? "reader" : "readers"} reached page 1 and ${last?.readers ?? 0} the last page.`;
  return (
    <div className="grid gap-4 md:grid-cols-2" data-testid="reading-chart">
      <figure>
        <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label} className="h-40 w-full">
          {figures.map((f, i) => {
            const h = f.medianSeconds === 0 ? 1 : Math.max(2, (f.medianSeconds / max) * (height - top - bottom));
            const x = i * slot + (slot - barWidth) / 2;
            return (
              <g key={f.page}>
                <rect
                  x={x}
                  y={height - bottom - h}
                  width={barWidth}
                  height={h}
                  rx={1}
                  className={f.readers ? "fill-primary" : "fill-muted"}
                >
                  <title>{`Page ${f.page}: median ${formatSeconds(f.medianSeconds)}, ${f.readers} readers`}</title>
                </rect>
                <text
                  x={i * slot + slot / 2}
                  y={height - bottom + 11}
                  textAnchor="middle"
                  className="fill-foreground text-[9px]"
                >
                  {f.page}
                </text>
                <text
                  x={i * slot + slot / 2}
                  y={height - 4}
                  textAnchor="middle"
                  className="fill-muted-foreground text-[8px]"
                >
                  {f.readers}
                </text>
              </g>
            );
          })}
        </svg>
        <figcaption className="mt-1 text-xs text-muted-foreground">
          Bars: median seconds per page. Beneath: page number, then readers who reached it.
        </figcaption>
      </figure>
      <table className="w-full text-sm">
        <caption className="sr-only">{`${title}: seconds and readers per page`}</caption>
        <thead>
          <tr>
            <th scope="col" className="text-left">
              Page
            </th>
            <th scope="col" className="text-right">
              Median time
            </th>
            <th scope="col" className="text-right">
              Readers
            </th>
          </tr>
        </thead>
        <tbody>
          {figures.map((f) => (
            <tr key={f.page}>
              <th scope="row" className="text-left font-normal">
                Page {f.page}
              </th>
              <td className="text-right tabular-nums">{formatSeconds(f.medianSeconds)}</td>
              <td className="text-right tabular-nums">{f.readers}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
