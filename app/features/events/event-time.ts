/**
 * An event's time (docs/decisions/096-event-times.md): what the admin types (a wall-clock time in
 * an IANA zone, `<input type="datetime-local">`) as an instant, and an instant as that zone's
 * clock shows it with its UTC offset. Pure Intl (its formatters in utils/format.ts), the same in
 * workerd, Node and the browser.
 */
import { formatZonedDateTime, zoneClock } from "~/utils/format";

/** The group's own zone: the form offers it first and the events are written in it by default. */
export const DEFAULT_TIME_ZONE = "Europe/Berlin";

/** Whether the runtime knows the zone (an unknown one is refused, never guessed). */
export function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(zone)) return false;
  try {
    zoneClock(zone);
    return true;
  } catch {
    return false;
  }
}

/** The zones the form offers: the group's first, then every zone the runtime lists, and UTC. */
export function timeZoneOptions(): string[] {
  const listed = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return [...new Set([DEFAULT_TIME_ZONE, ...listed, "UTC"])];
}

/** A zone as a place with its offset now: "Berlin (UTC+1)", "Kolkata (UTC+5:30)", "UTC". */
export function zoneLabel(zone: string, at = Date.now()): string {
  if (zone === "UTC") return "UTC";
  const minutes = Math.round(offsetAt(at, zone) / 60_000);
  const abs = Math.abs(minutes);
  const offset = `UTC${minutes < 0 ? "-" : "+"}${Math.floor(abs / 60)}${abs % 60 ? `:${pad(abs % 60)}` : ""}`;
  const parts = zone.split("/");
  const place = parts.at(-1)!.replace(/_/g, " ");
  // A region after the place where the place alone is ambiguous or unknown ("Argentina/Salta").
  const region = parts.length > 2 ? `, ${parts.slice(1, -1).join(" ").replace(/_/g, " ")}` : "";
  return `${place}${region} (${minutes === 0 ? "UTC" : offset})`;
}

/** A zone the form offers: its IANA id and how it reads. */
export interface ZoneOption {
  value: string;
  label: string;
}

/**
 * The form's zones: a short list first (the group's zone, then the ones events already use; the
 * page adds the visitor's own), then every other zone by place, which a select finds as one types.
 */
export function zoneChoices(used: readonly string[], at = Date.now()): { common: ZoneOption[]; rest: ZoneOption[] } {
  const option = (value: string) => ({ value, label: zoneLabel(value, at) });
  const common = [...new Set([DEFAULT_TIME_ZONE, ...used.filter(isTimeZone)])];
  const rest = timeZoneOptions()
    .filter((z) => !common.includes(z))
    .map(option)
    .sort((a, b) => a.label.localeCompare(b.label, "en"));
  return { common: common.map(option), rest };
}

function partsIn(ms: number, zone: string) {
  const dtf = zoneClock(zone);
  const p = Object.fromEntries(dtf.formatToParts(ms).map((x) => [x.type, x.value]));
  return {
    year: Number(p.year),
    month: Number(p.month),
    day: Number(p.day),
    hour: Number(p.hour) % 24,
    minute: Number(p.minute),
    second: Number(p.second),
  };
}

/** The zone's offset from UTC at that instant, in ms (Berlin in winter: +3,600,000). */
export function offsetAt(ms: number, zone: string): number {
  const p = partsIn(ms, zone);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - Math.floor(ms / 1000) * 1000;
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?)?$/;

/** A `datetime-local` value (or a date) as its parts, or null when it is not one. */
export function parseLocal(value: string) {
  const m = LOCAL.exec(value.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4] ?? "0", m[5] ?? "0", m[6] ?? "0"].map(
    Number,
  ) as [number, number, number, number, number, number];
  const check = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  )
    return null;
  return { year, month, day, hour, minute, second, date: `${m[1]}-${m[2]}-${m[3]}` };
}

/**
 * The instant a wall-clock time in the zone names. In the hour a clock skips (spring forward) it
 * is the time an hour later; in the hour it repeats, the first of the two.
 */
export function zonedToInstant(local: string, zone: string): number | null {
  const p = parseLocal(local);
  if (!p || !isTimeZone(zone)) return null;
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  // The zone's offsets a day either side: a clock change lies between them at most.
  const before = offsetAt(wall - 86_400_000, zone);
  const after = offsetAt(wall + 86_400_000, zone);
  const wanted = toLocalString(p);
  const candidates = [...new Set([before, after])]
    .map((offset) => wall - offset)
    .filter((ms) => instantToLocal(ms, zone) === wanted);
  // A skipped wall time is read with the offset before the change: the clock shows it an hour later.
  return candidates.length ? Math.min(...candidates) : wall - before;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

const toLocalString = (p: { year: number; month: number; day: number; hour: number; minute: number }) =>
  `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`;

/** An instant as the zone's `datetime-local` value ("2026-03-12T16:00"). */
export function instantToLocal(ms: number, zone: string): string {
  return toLocalString(partsIn(ms, zone));
}

/** The next day of a date ("2026-03-12" → "2026-03-13"). */
export function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** "UTC+01:00", "UTC-05:30", "UTC+00:00". */
export function offsetLabel(ms: number, zone: string): string {
  const minutes = Math.round(offsetAt(ms, zone) / 60_000);
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** "Thursday, 12 March 2026, 16:00": the instant on the zone's clock (the viewer's when `zone` is undefined). */
export const formatInZone = formatZonedDateTime;

/** An all-day date ("2026-03-12") as "Thursday, 12 March 2026". */
export const formatDay = (date: string) => formatInZone(Date.parse(`${date}T12:00:00Z`), "UTC", { time: false });
