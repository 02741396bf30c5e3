/**
 * Dates and numbers printed the same on the server and in every browser (fixed locale, UTC).
 * An Intl formatter is slow to build the first time a page uses one (the browser loads its locale
 * data: 20–27 ms of a blog page's hydration on the bench machine, a long task on a phone), so the
 * two date styles public pages print are written out here, the same text as Intl's en-US
 * (tests/node/format.test.ts compares every day of several years). The admin's formats keep Intl:
 * each is built on first use (not at import, which would add to the worker's start-up) and then
 * reused (not once per call, which `toLocaleString` does).
 */
const LOCALE = "en-US";
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

function monthName(date: Date): string {
  const name = MONTHS[date.getUTCMonth()];
  // Only an Invalid Date (month NaN) has none: say so rather than print "undefined".
  if (name === undefined) throw new RangeError("Invalid date");
  return name;
}

let mediumDateTime: Intl.DateTimeFormat | undefined;
let integer: Intl.NumberFormat | undefined;

/** "January 15, 2024". */
export function formatLongDate(date: Date): string {
  return `${monthName(date)} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}

/** "Jan 15, 2024". */
export function formatMediumDate(date: Date): string {
  return `${monthName(date).slice(0, 3)} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}

/** "Jan 15, 2024, 9:05 AM UTC": an instant (ms) with its time of day. */
export function formatDateTime(ms: number): string {
  mediumDateTime ??= new Intl.DateTimeFormat(LOCALE, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
  return `${mediumDateTime.format(new Date(ms))} UTC`;
}

/** A date ("2024-01-15", read as UTC) or an instant (ISO 8601), in the long or medium style. */
export function formatIsoDate(iso: string, style: "long" | "medium" = "long"): string {
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(iso) ? `${iso}T00:00:00Z` : iso);
  return style === "long" ? formatLongDate(date) : formatMediumDate(date);
}

/** "2,500". */
export function formatInteger(n: number): string {
  integer ??= new Intl.NumberFormat(LOCALE);
  return integer.format(n);
}

/** Formatters per IANA zone (events: docs/decisions/096), each built on its zone's first use. */
const zoneClocks: Record<string, Intl.DateTimeFormat> = Object.create(null);
const zoneDisplays: Record<string, Intl.DateTimeFormat> = Object.create(null);

/** A zone's wall clock as parts (24-hour, en-US digits); a RangeError for a zone the runtime does not know. */
export function zoneClock(zone: string): Intl.DateTimeFormat {
  return (zoneClocks[zone] ??= new Intl.DateTimeFormat(LOCALE, {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }));
}

/**
 * "Thursday, 12 March 2026, 16:00" on the zone's clock (the runtime's own zone when `zone` is
 * undefined: the visitor's, in the browser); without the time for a date.
 */
export function formatZonedDateTime(ms: number, zone: string | undefined, { time = true } = {}): string {
  const key = `${zone ?? ""}|${time ? "t" : "d"}`;
  const dtf = (zoneDisplays[key] ??= new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    ...(time ? { hour: "2-digit", minute: "2-digit", hourCycle: "h23" } : {}),
  }));
  return dtf.format(ms);
}
