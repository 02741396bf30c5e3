// The calendar's pure parts (docs/decisions/095, 096): RFC 5545 folding and escaping, and a
// wall-clock time in an IANA zone as an instant, across the clock changes.
import { describe, expect, it } from "vitest";
import { escapeText, foldLine, icsCalendar } from "~/features/events/ics";
import { instantToLocal, isTimeZone, offsetLabel, zonedToInstant } from "~/features/events/event-time";

describe("RFC 5545 text", () => {
  it("escapes backslash, semicolon, comma and line breaks, and drops control characters", () => {
    expect(escapeText("a\\b; c, d\r\ne\nf\u0007")).toBe("a\\\\b\\; c\\, d\\ne\\nf");
  });

  it("folds at 75 octets, continuation lines start with a space, never inside a UTF-8 character", () => {
    const line = `SUMMARY:${"€".repeat(60)}`;
    const folded = foldLine(line);
    const parts = folded.split("\r\n");
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts) expect(new TextEncoder().encode(part).length).toBeLessThanOrEqual(75);
    for (const part of parts.slice(1)) expect(part.startsWith(" ")).toBe(true);
    expect(parts.map((p, i) => (i ? p.slice(1) : p)).join("")).toBe(line);
    expect(foldLine("SHORT:ok")).toBe("SHORT:ok");
  });

  it("writes a calendar with CRLF only", () => {
    const text = icsCalendar("Name, with comma", []);
    expect(text).toBe(
      "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//AFX Holding Group//Events//EN\r\nCALSCALE:GREGORIAN\r\nMETHOD:PUBLISH\r\nX-WR-CALNAME:Name\\, with comma\r\nEND:VCALENDAR\r\n",
    );
  });
});

describe("zoned times", () => {
  it("reads a Berlin wall-clock time in winter and in summer", () => {
    expect(zonedToInstant("2027-03-12T16:00", "Europe/Berlin")).toBe(Date.parse("2027-03-12T15:00:00Z"));
    expect(zonedToInstant("2027-07-12T16:00", "Europe/Berlin")).toBe(Date.parse("2027-07-12T14:00:00Z"));
    expect(zonedToInstant("2027-07-12T16:00", "America/New_York")).toBe(Date.parse("2027-07-12T20:00:00Z"));
    expect(offsetLabel(Date.parse("2027-03-12T15:00:00Z"), "Europe/Berlin")).toBe("UTC+01:00");
    expect(offsetLabel(Date.parse("2027-07-12T14:00:00Z"), "Asia/Kolkata")).toBe("UTC+05:30");
  });

  it("takes the first of a repeated hour and moves a skipped one forward", () => {
    // Berlin 2027-10-31 02:30 happens twice (CEST, then CET); 2027-03-28 02:30 never happens.
    expect(zonedToInstant("2027-10-31T02:30", "Europe/Berlin")).toBe(Date.parse("2027-10-31T00:30:00Z"));
    expect(zonedToInstant("2027-03-28T02:30", "Europe/Berlin")).toBe(Date.parse("2027-03-28T01:30:00Z"));
  });

  it("round-trips to the zone's clock and refuses what is not a zone or a time", () => {
    const ms = zonedToInstant("2027-01-05T09:15", "Australia/Sydney")!;
    expect(instantToLocal(ms, "Australia/Sydney")).toBe("2027-01-05T09:15");
    expect(isTimeZone("Mars/Olympus_Mons")).toBe(false);
    expect(isTimeZone("__proto__")).toBe(false);
    expect(zonedToInstant("2027-02-30T10:00", "Europe/Berlin")).toBeNull();
    expect(zonedToInstant("tomorrow", "Europe/Berlin")).toBeNull();
  });
});
