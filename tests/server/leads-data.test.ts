import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { CSV_HEADER, csvCell, csvFileName, csvRow, leadsCsvStream } from "~/features/leads/csv.server";
import { LISTED, listLeads } from "~/features/leads/lead-list.server";
import { getGrowth, getLeadStats, statsResponse } from "~/features/leads/lead-stats.server";
import { DAY, insertLeads } from "../worker/leads-helpers";
import { getDb } from "~/utils/db.server";
import { expectDefined } from "../fixtures/expect-defined";

// The figures of the dashboard and the API, straight from the SQL, at fixed instants.
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const MIN = 60_000;

beforeEach(async () => {
  await env.DB.prepare("DELETE FROM leads").run();
});

describe("stats", () => {
  it("are zero, with no top source, for an empty table", async () => {
    const stats = await getLeadStats(getDb(env), NOW);
    expect(statsResponse(stats)).toEqual({ total: 0, thisWeek: 0, bySource: {} });
    expect(stats.sources[0]).toBeUndefined();
  });

  it("count this week as the last 7 × 24 h, edges included", async () => {
    await insertLeads(
      [
        { email: "now@x.com", ago: 0 },
        { email: "edge-in@x.com", ago: 7 * DAY },
        { email: "just-in@x.com", ago: 7 * DAY - MIN },
        { email: "just-out@x.com", ago: 7 * DAY + 1 },
        { email: "old@x.com", ago: 40 * DAY },
      ],
      NOW,
    );
    const stats = await getLeadStats(getDb(env), NOW);
    expect(stats.total).toBe(5);
    expect(stats.thisWeek).toBe(3);
  });

  it("count per source, most first, ties alphabetical", async () => {
    await insertLeads(
      [
        { email: "1@x.com", source: "popup" },
        { email: "2@x.com", source: "blog" },
        { email: "3@x.com", source: "popup" },
        { email: "4@x.com", source: "blog" },
        { email: "5@x.com", source: "footer" },
      ],
      NOW,
    );
    const stats = await getLeadStats(getDb(env), NOW);
    expect(stats.sources).toEqual([
      { source: "blog", count: 2 },
      { source: "popup", count: 2 },
      { source: "footer", count: 1 },
    ]);
    expect(statsResponse(stats).bySource).toEqual({ blog: 2, popup: 2, footer: 1 });
  });
});

describe("daily counts (kept by triggers)", () => {
  it("follow inserts, deletes and changes of source or time", async () => {
    await insertLeads(
      [
        { email: "a@x.com", source: "blog" },
        { email: "b@x.com", source: "blog", ago: 10 * DAY },
        { email: "c@x.com", source: "popup", ago: 2 * DAY },
      ],
      NOW,
    );
    expect(await getLeadStats(getDb(env), NOW)).toEqual({
      total: 3,
      thisWeek: 2,
      sources: [
        { source: "blog", count: 2 },
        { source: "popup", count: 1 },
      ],
    });
    await env.DB.prepare("DELETE FROM leads WHERE email = 'a@x.com'").run();
    await env.DB.prepare("UPDATE leads SET source = 'footer', subscribed_at = ? WHERE email = 'b@x.com'")
      .bind(NOW - DAY)
      .run();
    expect(await getLeadStats(getDb(env), NOW)).toEqual({
      total: 2,
      thisWeek: 2,
      sources: [
        { source: "footer", count: 1 },
        { source: "popup", count: 1 },
      ],
    });
    const { results } = await env.DB.prepare(
      "SELECT (SELECT SUM(count) FROM lead_daily_counts) AS counted, (SELECT COUNT(*) FROM leads) AS rows",
    ).all<{ counted: number; rows: number }>();
    expect(expectDefined(results[0]).counted).toBe(expectDefined(results[0]).rows);
  });
});

describe("growth", () => {
  it("lists up to 10 leads of the last 30 × 24 h, newest first", async () => {
    await insertLeads(
      [
        ...Array.from({ length: 12 }, (_, i) => ({ email: `g${i}@x.com`, ago: i * DAY })),
        { email: "edge@x.com", ago: 30 * DAY },
        { email: "out@x.com", ago: 30 * DAY + 1 },
      ],
      NOW,
    );
    const growth = await getGrowth(getDb(env), NOW);
    expect(growth.recent.map((l) => l.email)).toEqual(Array.from({ length: 10 }, (_, i) => `g${i}@x.com`));
  });

  it("shows only leads of the window, whatever their number", async () => {
    await insertLeads(
      [
        { email: "in@x.com", ago: 30 * DAY - MIN },
        { email: "out@x.com", ago: 30 * DAY + MIN },
      ],
      NOW,
    );
    expect((await getGrowth(getDb(env), NOW)).recent.map((l) => l.email)).toEqual(["in@x.com"]);
  });

  it("counts signups per UTC day over 30 days, today last", async () => {
    const todayStart = Date.UTC(2026, 10, 21);
    await insertLeads(
      [
        { email: "t1@x.com", ago: NOW - todayStart }, // today 00:00
        { email: "t2@x.com", ago: 0 }, // today 12:00
        { email: "y@x.com", ago: NOW - todayStart + 1 }, // yesterday 23:59:59.999
        { email: "first@x.com", ago: NOW - (todayStart - 29 * DAY) }, // first day 00:00
        { email: "before@x.com", ago: NOW - (todayStart - 29 * DAY) + 1 }, // the day before: out
      ],
      NOW,
    );
    const { daily } = await getGrowth(getDb(env), NOW);
    expect(daily).toHaveLength(30);
    expect(daily[0]).toEqual({ date: "2026-10-23", count: 1 });
    expect(daily[28]).toEqual({ date: "2026-11-20", count: 1 });
    expect(daily[29]).toEqual({ date: "2026-11-21", count: 2 });
    expect(daily.reduce((s, d) => s + d.count, 0)).toBe(4);
  });
});

describe("listing", () => {
  it("pages newest first by (subscribed_at, id) without gaps or repeats, also on equal times", async () => {
    await insertLeads(
      Array.from({ length: 7 }, (_, i) => ({ email: `l${i}@x.com`, ago: Math.floor(i / 3) * MIN })),
      NOW,
    );
    const seen: string[] = [];
    let cursor = null;
    for (;;) {
      const page: Awaited<ReturnType<typeof listLeads>> = await listLeads(getDb(env), { limit: 2, cursor });
      seen.push(...page.leads.map((l) => l.email));
      if (!page.next) break;
      cursor = page.next;
    }
    // Same time: higher id (inserted later) first.
    expect(seen).toEqual(["l2@x.com", "l1@x.com", "l0@x.com", "l5@x.com", "l4@x.com", "l3@x.com", "l6@x.com"]);
  });
});

describe("CSV", () => {
  // The product's columns (docs/product.md), pinned here once; every other test reads CSV_HEADER.
  it("has the product's header, in its order", () => {
    expect(CSV_HEADER).toEqual(["Email", "First Name", "Last Name", "Source", "Subscribed At"]);
  });

  it("quotes every value, doubles quotes and defuses formulas", () => {
    expect(csvCell('say "hi", ok')).toBe('"say ""hi"", ok"');
    expect(csvCell("line\nbreak")).toBe('"line\nbreak"');
    expect(csvCell("Zoë")).toBe('"Zoë"');
    for (const lead of ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"]) expect(csvCell(lead)).toBe(`"'${lead}"`);
    expect(csvCell(null)).toBe('""');
    expect(csvCell("")).toBe('""');
    expect(csvCell("a=b")).toBe('"a=b"');
    expect(csvCell('=say "hi"')).toBe(`"'=say ""hi"""`);
  });

  it("names the file with the date", () => {
    expect(csvFileName(new Date(NOW))).toBe("afx-leads-2026-11-21.csv");
  });

  it("streams a BOM, the header and every lead with CRLF, page by page", async () => {
    await insertLeads(
      [
        { email: "q@x.com", firstName: 'Mary "Q", Jr.', lastName: "Multi\nLine", source: "blog", ago: 2 * MIN },
        { email: "zoe@x.com", firstName: "Zoë", lastName: '=HYPERLINK("http://evil")', source: "footer", ago: MIN },
        { email: "n@x.com", firstName: "N", lastName: null, source: "popup", ago: 0 },
      ],
      NOW,
    );
    const bytes = new Uint8Array(await new Response(leadsCsvStream(getDb(env), { pageSize: 2 })).arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    const iso = (ago: number) => new Date(NOW - ago).toISOString();
    // Each row in LISTED's columns: the fields this test wrote, any other listed column empty.
    const row = (cells: Partial<Record<keyof typeof LISTED, string>>) =>
      (Object.keys(LISTED) as (keyof typeof LISTED)[]).map((key) => (key in cells ? cells[key]! : '""')).join(",");
    expect(text).toBe(
      [
        csvRow(CSV_HEADER).slice(0, -2),
        row({ email: `"n@x.com"`, firstName: `"N"`, lastName: `""`, source: `"popup"`, subscribedAt: `"${iso(0)}"` }),
        row({
          email: `"zoe@x.com"`,
          firstName: `"Zoë"`,
          lastName: `"'=HYPERLINK(""http://evil"")"`,
          source: `"footer"`,
          subscribedAt: `"${iso(MIN)}"`,
        }),
        row({
          email: `"q@x.com"`,
          firstName: `"Mary ""Q"", Jr."`,
          lastName: `"Multi\nLine"`,
          source: `"blog"`,
          subscribedAt: `"${iso(2 * MIN)}"`,
        }),
        "",
      ].join("\r\n"),
    );
  });

  const csvText = async (stream: ReadableStream<Uint8Array>) =>
    new TextDecoder("utf-8", { ignoreBOM: true }).decode(await new Response(stream).arrayBuffer());
  const HEADER = `\uFEFF${csvRow(CSV_HEADER)}`;

  it("is the BOM and the header alone for an empty table", async () => {
    expect(await csvText(leadsCsvStream(getDb(env), { pageSize: 2 }))).toBe(HEADER);
  });

  it("pages by (subscribed_at, id): ties across a page edge and a last full page lose and repeat nothing", async () => {
    // Five leads at one instant and one older: pages of 2 split the tie twice and end full.
    const emails = ["t1@x.com", "t2@x.com", "t3@x.com", "t4@x.com", "t5@x.com"];
    await insertLeads([...emails.map((email) => ({ email, ago: MIN })), { email: "old@x.com", ago: DAY }], NOW);
    const emailsOut = (text: string) =>
      text
        .split("\r\n")
        .slice(1, -1)
        .map((line) => line.split(",")[0]);
    const expected = ['"t5@x.com"', '"t4@x.com"', '"t3@x.com"', '"t2@x.com"', '"t1@x.com"', '"old@x.com"'];
    for (const pageSize of [1, 2, 3, 6, 7]) {
      expect(emailsOut(await csvText(leadsCsvStream(getDb(env), { pageSize }))), `page size ${pageSize}`).toEqual(
        expected,
      );
    }
  });

  it("reads a page from D1 only when the reader asks for it (nothing queued ahead)", async () => {
    await insertLeads(
      Array.from({ length: 6 }, (_, i) => ({ email: `p${i}@x.com`, ago: i * MIN })),
      NOW,
    );
    let queries = 0;
    const counting = { prepare: (query: string) => (queries++, env.DB.prepare(query)) } as unknown as D1Database;
    const reader = leadsCsvStream(getDb({ DB: counting }), { pageSize: 2 }).getReader();
    const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
    await settle();
    expect(queries).toBe(0);
    await reader.read();
    await settle();
    expect(queries).toBe(1);
    await reader.read();
    await settle();
    expect(queries).toBe(2);
    await reader.cancel();
  });
});
