import { describe, expect, it } from "vitest";
import { formatDateTime, formatInteger, formatIsoDate } from "~/utils/format";

// Dates and numbers print the same on the server and in every browser: fixed locale, UTC.
describe("formats", () => {
  it("an instant with its time of day, in UTC (the inbox's dates)", () => {
    expect(formatDateTime(Date.UTC(2026, 10, 25, 9, 5))).toBe("Nov 25, 2026, 9:05 AM UTC");
    expect(formatDateTime(Date.UTC(2026, 0, 1, 23, 59))).toBe("Jan 1, 2026, 11:59 PM UTC");
  });

  it("dates in the long and medium styles, a bare date read as UTC", () => {
    expect(formatIsoDate("2024-01-15")).toBe("January 15, 2024");
    expect(formatIsoDate("2024-01-15T23:30:00.000Z", "medium")).toBe("Jan 15, 2024");
  });

  it("integers with thousands separators", () => {
    expect(formatInteger(2500)).toBe("2,500");
  });
});
