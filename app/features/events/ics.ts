/**
 * Calendar files (RFC 5545; docs/decisions/095-events.md): one VCALENDAR of VEVENTs, written by
 * hand. Lines end in CRLF and are folded at 75 octets without splitting a UTF-8 character; TEXT
 * values are escaped. Timed events are written in UTC (no VTIMEZONE needed), all-day events as
 * dates. `DTSTAMP` is the event's last change, so the same data gives the same bytes (the ETag).
 */

export interface IcsEvent {
  uid: string;
  sequence: number;
  /** Last change (ms): DTSTAMP and LAST-MODIFIED. */
  updatedAt: number;
  createdAt: number;
  title: string;
  description: string;
  location: string;
  /** The event's page. */
  pageUrl: string;
  /** The webcast or venue link, if any. */
  link: string | null;
  status: "scheduled" | "cancelled";
  allDay: boolean;
  startsAt: number;
  endsAt: number;
  /** All-day: the first and last day, inclusive. */
  startDate: string | null;
  endDate: string | null;
}

export const ICS_CONTENT_TYPE = "text/calendar; charset=utf-8";
const PRODID = "-//AFX Holding Group//Events//EN";

/** A TEXT value: backslash, semicolon, comma and line breaks escaped; other control characters dropped. */
export function escapeText(value: string): string {
  return (
    value
      .replace(/\r\n?/g, "\n")
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "")
      .replace(/\\/g, "\\\\")
      .replace(/;/g, "\\;")
      .replace(/,/g, "\\,")
      .replace(/\n/g, "\\n")
  );
}

const encoder = new TextEncoder();

/** One content line folded at 75 octets (a continuation starts with a space), never inside a character. */
export function foldLine(line: string): string {
  const out: string[] = [];
  let current = "";
  let octets = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    const limit = out.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      out.push(current);
      current = "";
      octets = 0;
    }
    current += char;
    octets += size;
  }
  out.push(current);
  return out.join("\r\n ");
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** 20260312T150000Z (the year always in four digits, as RFC 5545's DATE has it). */
export function utcStamp(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(
    d.getUTCMinutes(),
  )}${pad(d.getUTCSeconds())}Z`;
}

const dateValue = (date: string) => date.replace(/-/g, "");

function dayAfter(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

function vevent(e: IcsEvent): string[] {
  const description = [e.description.trim(), e.link ? `Link: ${e.link}` : "", `Details: ${e.pageUrl}`]
    .filter(Boolean)
    .join("\n\n");
  const times =
    e.allDay && e.startDate && e.endDate
      ? [`DTSTART;VALUE=DATE:${dateValue(e.startDate)}`, `DTEND;VALUE=DATE:${dateValue(dayAfter(e.endDate))}`]
      : [`DTSTART:${utcStamp(e.startsAt)}`, `DTEND:${utcStamp(e.endsAt)}`];
  return [
    "BEGIN:VEVENT",
    `UID:${escapeText(e.uid)}`,
    `DTSTAMP:${utcStamp(e.updatedAt)}`,
    `CREATED:${utcStamp(e.createdAt)}`,
    `LAST-MODIFIED:${utcStamp(e.updatedAt)}`,
    `SEQUENCE:${e.sequence}`,
    ...times,
    `SUMMARY:${escapeText(e.title)}`,
    `DESCRIPTION:${escapeText(description)}`,
    ...(e.location.trim() ? [`LOCATION:${escapeText(e.location.trim())}`] : []),
    `URL:${e.pageUrl}`,
    `STATUS:${e.status === "cancelled" ? "CANCELLED" : "CONFIRMED"}`,
    "TRANSP:OPAQUE",
    "END:VEVENT",
  ];
}

/** A whole calendar file: its name and events, CRLF throughout. */
export function icsCalendar(name: string, events: readonly IcsEvent[]): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    `PRODID:${PRODID}`,
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `X-WR-CALNAME:${escapeText(name)}`,
    ...events.flatMap(vevent),
    "END:VCALENDAR",
  ];
  return lines.map(foldLine).join("\r\n") + "\r\n";
}
