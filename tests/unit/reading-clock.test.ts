import { describe, expect, it } from "vitest";
import { IDLE_AFTER_MS, ReadingClock } from "~/features/engagement/reading-clock";
import { checkReport } from "~/features/engagement/plausibility";
import type { PageSeconds } from "~/features/engagement/plausibility";
import { formatSeconds, pageFigures } from "~/features/engagement/reading-stats";

function clock() {
  let now = 1_000_000;
  const sent: { pages: PageSeconds[]; last: boolean; at: number }[] = [];
  const c = new ReadingClock({ now: () => now, send: (pages, last) => sent.push({ pages, last, at: now }) });
  const wait = (ms: number) => {
    for (let t = 0; t < ms; t += 1000) {
      now += 1000;
      c.tick();
    }
  };
  return { c, sent, wait, at: () => now };
}

describe("the viewer's reading clock", () => {
  it("reports every 10 s while the page is visible, each page's own seconds", () => {
    const { c, sent, wait } = clock();
    wait(12_000);
    c.setPage(2);
    wait(12_000);
    c.end();
    const total = (page: number) =>
      sent.flatMap((s) => s.pages).reduce((sum, p) => sum + (p.page === page ? p.seconds : 0), 0);
    expect(total(1)).toBeCloseTo(12, 1);
    expect(total(2)).toBeCloseTo(12, 1);
    expect(sent.at(-1)?.last).toBe(true);
    for (let i = 1; i < sent.length - 1; i++) expect(sent[i]!.at - sent[i - 1]!.at).toBeLessThanOrEqual(10_000);
  });

  it("sends nothing while the tab is hidden, and counts none of it", () => {
    const { c, sent, wait } = clock();
    wait(3000);
    c.setVisible(false);
    expect(sent).toEqual([{ pages: [{ page: 1, seconds: 3 }], last: false, at: expect.any(Number) }]);
    wait(30_000);
    expect(sent).toHaveLength(1);
    c.setVisible(true);
    wait(2000);
    c.end();
    expect(sent[1]?.pages).toEqual([{ page: 1, seconds: 2 }]);
  });

  it("stops after a minute without input, and starts again on input", () => {
    const { c, sent, wait } = clock();
    wait(IDLE_AFTER_MS + 40_000);
    const counted = sent.flatMap((s) => s.pages).reduce((sum, p) => sum + p.seconds, 0);
    expect(counted).toBeCloseTo(60, 1);
    const before = sent.length;
    wait(30_000);
    expect(sent).toHaveLength(before);
    c.input();
    wait(10_000);
    expect(sent.at(-1)?.pages).toEqual([{ page: 1, seconds: 10 }]);
  });

  it("sends reports the server's plausibility check accepts", () => {
    const { c, sent, wait } = clock();
    const start = 1_000_000;
    wait(25_000);
    c.setPage(3);
    wait(4000);
    c.end();
    let since = start;
    for (const report of sent) {
      expect(checkReport(report.pages, 3, since, report.at)).toMatchObject({ ok: true });
      since = report.at;
    }
  });
});

describe("the server's plausibility check", () => {
  it("accepts a page that exists within the time since the last report", () => {
    expect(checkReport([{ page: 2, seconds: 9.5 }], 3, 0, 10_000)).toEqual({
      ok: true,
      pages: [{ page: 2, ms: 9500 }],
      seconds: 9.5,
    });
  });
  it("refuses a page the version does not have", () => {
    expect(checkReport([{ page: 4, seconds: 1 }], 3, 0, 10_000)).toEqual({ ok: false, reason: "page" });
    expect(checkReport([{ page: 0, seconds: 1 }], 3, 0, 10_000)).toEqual({ ok: false, reason: "page" });
  });
  it("refuses more seconds than have passed", () => {
    expect(checkReport([{ page: 1, seconds: 13 }], 3, 0, 10_000)).toEqual({ ok: false, reason: "time" });
    expect(
      checkReport(
        [
          { page: 1, seconds: 7 },
          { page: 2, seconds: 7 },
        ],
        3,
        0,
        10_000,
      ),
    ).toEqual({ ok: false, reason: "time" });
  });
  it("refuses what is not a report", () => {
    for (const bad of [
      null,
      [],
      "x",
      [{ page: "1", seconds: 1 }],
      [{ page: 1.5, seconds: 1 }],
      [{ page: 1, seconds: -1 }],
    ])
      expect(checkReport(bad, 3, 0, 10_000)).toEqual({ ok: false, reason: "shape" });
  });
});

describe("the room report's page figures", () => {
  it("gives each page its readers and their median seconds, pages nobody reached included", () => {
    const rows = [
      { reader: "a", page: 1, ms: 12_000 },
      { reader: "b", page: 1, ms: 4000 },
      { reader: "c", page: 1, ms: 20_000 },
      { reader: "a", page: 2, ms: 5000 },
      { reader: "a", page: 2, ms: 5000 },
      { reader: "b", page: 9, ms: 5000 },
    ];
    expect(pageFigures(rows, 3)).toEqual([
      { page: 1, readers: 3, medianSeconds: 12 },
      { page: 2, readers: 1, medianSeconds: 10 },
      { page: 3, readers: 0, medianSeconds: 0 },
    ]);
    expect(formatSeconds(12.4)).toBe("12 s");
    expect(formatSeconds(8.25)).toBe("8.3 s");
  });
});
