/**
 * Whether a reading report from the room's viewer could be true (docs/decisions/116): every page
 * it names exists in the version read, and the seconds it claims fit in the time since the last
 * report the server accepted for that reading (or since the reading began). A report that fails
 * either stores nothing: a page time is a claim about one person's attention, and a claim that
 * could not have happened is not recorded.
 */

/** One page's share of a report: seconds the page was visible since the viewer's last report. */
export interface PageSeconds {
  page: number;
  seconds: number;
}

/** The most pages one report may name (a viewer shows one page at a time; ten seconds each). */
export const MAX_PAGES_PER_REPORT = 20;
/** The most seconds one report may claim, whatever time has passed: the viewer reports every 10 s. */
export const MAX_SECONDS_PER_REPORT = 120;
/** The clocks' drift and the beacon's own travel: what the sum may exceed the elapsed time by. */
export const SLACK_SECONDS = 2;

export type Plausibility =
  | { ok: true; pages: { page: number; ms: number }[]; seconds: number }
  | { ok: false; reason: "shape" | "page" | "time" };

/**
 * Checks one report. `pageCount` is the version's pages; `since` the time (ms) of the last
 * accepted report or the reading's start; `now` the report's arrival. Repeated pages are summed; each page's time comes back in milliseconds, as stored.
 */
export function checkReport(report: unknown, pageCount: number, since: number, now: number): Plausibility {
  if (!Array.isArray(report) || report.length === 0 || report.length > MAX_PAGES_PER_REPORT)
    return { ok: false, reason: "shape" };
  const byPage = new Map<number, number>();
  for (const entry of report as unknown[]) {
    if (typeof entry !== "object" || entry === null) return { ok: false, reason: "shape" };
    const { page, seconds } = entry as Record<string, unknown>;
    if (typeof page !== "number" || typeof seconds !== "number" || !Number.isInteger(page))
      return { ok: false, reason: "shape" };
    if (!Number.isFinite(seconds) || seconds <= 0) return { ok: false, reason: "shape" };
    if (page < 1 || page > pageCount) return { ok: false, reason: "page" };
    byPage.set(page, (byPage.get(page) ?? 0) + seconds);
  }
  const total = [...byPage.values()].reduce((sum, s) => sum + s, 0);
  const elapsed = Math.max(0, (now - since) / 1000);
  if (total > MAX_SECONDS_PER_REPORT || total > elapsed + SLACK_SECONDS) return { ok: false, reason: "time" };
  const pages = [...byPage].map(([page, seconds]) => ({ page, ms: Math.round(seconds * 1000) }));
  return { ok: true, pages, seconds: total };
}
