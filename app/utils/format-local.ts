/**
 * An instant in the browser's own time zone, for a page that shows times to their reader after
 * hydration (the admin's inbox). A module apart from format.ts, which every page's bundle
 * carries: only the pages that call this carry it. Its formatters follow format.ts's rule
 * (decision 032): each built once, on first use.
 */
const LOCALE = "en-US";
let localDateTime: Intl.DateTimeFormat | undefined;
let localZone: Intl.DateTimeFormat | undefined;

/** "Jan 15, 2024, 10:05 AM GMT+1": an instant in the browser's own time zone (after hydration only). */
export function formatLocalDateTime(ms: number): string {
  const date = new Date(ms);
  localDateTime ??= new Intl.DateTimeFormat(LOCALE, { dateStyle: "medium", timeStyle: "short" });
  localZone ??= new Intl.DateTimeFormat(LOCALE, { timeZoneName: "short" });
  const zone = localZone.formatToParts(date).find((p) => p.type === "timeZoneName")?.value;
  return zone ? `${localDateTime.format(date)} ${zone}` : localDateTime.format(date);
}
