/** The room report's figures per page of a document (docs/decisions/116), from stored page times. */

export interface PageTimeRow {
  /** Whose reading (an investor's id): readers are counted once per page. */
  reader: string;
  page: number;
  ms: number;
}

export interface PageFigure {
  page: number;
  /** How many readers reached the page (spent any recorded time on it). */
  readers: number;
  /** The median of those readers' total seconds on the page, one decimal; 0 when none. */
  medianSeconds: number;
}

function median(values: number[]): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Seconds as the report writes them: whole seconds, or one decimal under ten. */
export function formatSeconds(seconds: number): string {
  const value = seconds >= 10 ? Math.round(seconds) : Math.round(seconds * 10) / 10;
  return `${value} s`;
}

/**
 * One figure per page, 1 to `pageCount` (pages nobody reached included, so the chart shows where
 * readers drop off). Rows for pages past `pageCount` (an earlier, longer version) are left out.
 */
export function pageFigures(rows: readonly PageTimeRow[], pageCount: number): PageFigure[] {
  const perPage = new Map<number, Map<string, number>>();
  for (const row of rows) {
    if (row.page < 1 || row.page > pageCount || row.ms <= 0) continue;
    const readers = perPage.get(row.page) ?? new Map<string, number>();
    readers.set(row.reader, (readers.get(row.reader) ?? 0) + row.ms);
    perPage.set(row.page, readers);
  }
  return Array.from({ length: pageCount }, (_, i) => {
    const times = [...(perPage.get(i + 1)?.values() ?? [])];
    return {
      page: i + 1,
      readers: times.length,
      medianSeconds: Math.round(median(times) / 100) / 10,
    };
  });
}
