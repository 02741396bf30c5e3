// The two date styles public pages print are written out in app/utils/format.ts instead of built
// with Intl (its first use is a long task in the browser): the same text as Intl's en-US in UTC,
// for every day of several years (leap years, month ends, single-digit days).
import { describe, expect, it } from "vitest";
import { formatIsoDate, formatLongDate, formatMediumDate } from "~/utils/format";

const intl = (dateStyle: "long" | "medium") => new Intl.DateTimeFormat("en-US", { dateStyle, timeZone: "UTC" });

describe("dates as Intl's en-US prints them, in UTC", () => {
  const days: Date[] = [];
  for (let t = Date.UTC(2023, 0, 1); t < Date.UTC(2029, 0, 1); t += 86_400_000) days.push(new Date(t));

  it.each(["long", "medium"] as const)("%s: every day from 2023 to 2028", (style) => {
    const format = style === "long" ? formatLongDate : formatMediumDate;
    const expected = intl(style);
    expect(days.length).toBe(2192);
    for (const day of days) expect(format(day), day.toISOString()).toBe(expected.format(day));
  });

  it("reads the date in UTC whatever the instant's time of day", () => {
    expect(formatLongDate(new Date("2024-02-29T23:59:59Z"))).toBe("February 29, 2024");
    expect(formatMediumDate(new Date("2024-03-01T00:00:00Z"))).toBe("Mar 1, 2024");
    expect(formatIsoDate("2024-09-05", "medium")).toBe("Sep 5, 2024");
    expect(formatIsoDate("2024-12-31T23:30:00-01:00")).toBe("January 1, 2025");
  });
});
