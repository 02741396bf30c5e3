import { env, SELF } from "cloudflare:test";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CSV_HEADER, csvRow } from "~/features/leads/csv.server";
import { get, signIn, type Jar } from "./auth-helpers";
import { DAY, insertLeads, ORIGIN } from "./leads-helpers";
import { expectDefined } from "../fixtures/expect-defined";
import { LISTED } from "~/features/leads/lead-list.server";

// Lead data is personal data: nothing of it without an admin session.
const ADMIN_PATHS = ["/api/leads", "/api/leads/stats", "/admin/leads.csv"];

let admin: Jar;
let member: Jar;
beforeAll(async () => {
  admin = (await signIn("admin@example.com", { name: "Ada Admin" })).jar;
  member = (await signIn("member@example.com", { name: "Max Member" })).jar;
});

beforeEach(async () => {
  await env.DB.prepare("DELETE FROM leads").run();
});

describe("who may see leads", () => {
  it.each(ADMIN_PATHS)("%s answers 401 { message } to an anonymous visitor", async (path) => {
    await insertLeads([{ email: "secret@example.com" }]);
    const res = await SELF.fetch(`${ORIGIN}${path}`);
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.text();
    expect(JSON.parse(body)).toEqual({ message: expect.any(String) });
    expect(body).not.toContain("secret@example.com");
  });

  it.each(ADMIN_PATHS)("%s answers 403 { message } to a signed-in member", async (path) => {
    await insertLeads([{ email: "secret@example.com" }]);
    const res = await get(path, member);
    expect(res.status).toBe(403);
    const body = await res.text();
    expect(JSON.parse(body)).toEqual({ message: expect.any(String) });
    expect(body).not.toContain("secret@example.com");
  });

  it("/admin/leads is the not-found page with 404 for anonymous visitors and members", async () => {
    for (const jar of [undefined, member]) {
      const res = await get("/admin/leads", jar);
      expect(res.status).toBe(404);
      const html = await res.text();
      expect(html).toContain("Page Not Found");
      expect(html).not.toContain("Recent Subscribers");
    }
  });
});

describe("GET /api/leads", () => {
  it("lists leads newest first in the documented shape, 100 by default, with a Link to the next page", async () => {
    await insertLeads(
      Array.from({ length: 101 }, (_, i) => ({ email: `l${i}@x.com`, ago: i * 1000, lastName: i ? null : "Last" })),
    );
    const res = await get("/api/leads", admin);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const page = await res.json<Record<string, unknown>[]>();
    expect(page).toHaveLength(100);
    // The documented shape: the id and the listed fields (LISTED), no more.
    expect(Object.keys(expectDefined(page[0])).sort()).toEqual(["id", ...Object.keys(LISTED)].sort());
    expect(page[0]).toMatchObject({
      id: expect.any(Number),
      email: "l0@x.com",
      firstName: "Test",
      lastName: "Last",
      source: "footer",
      subscribedAt: expect.stringMatching(/Z$/),
    });
    const next = res.headers.get("link")!.match(/^<([^>]+)>; rel="next"$/)![1];
    const rest = await (await get(expectDefined(next), admin)).json<{ email: string }[]>();
    expect(rest.map((l) => l.email)).toEqual(["l100@x.com"]);
  });

  it("follows Link pages to the end without gaps, and has no Link on the last page", async () => {
    await insertLeads(Array.from({ length: 5 }, (_, i) => ({ email: `p${i}@x.com`, ago: Math.floor(i / 2) * 1000 })));
    const seen: string[] = [];
    let path: string | null = "/api/leads?limit=2";
    while (path) {
      const res: Response = await get(path, admin);
      seen.push(...(await res.json<{ email: string }[]>()).map((l) => l.email));
      path = res.headers.get("link")?.match(/<([^>]+)>/)?.[1] ?? null;
    }
    expect(seen.sort()).toEqual(["p0@x.com", "p1@x.com", "p2@x.com", "p3@x.com", "p4@x.com"]);
  });

  it("caps limit at 1000", async () => {
    await env.DB.prepare(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1001) INSERT INTO leads (email, first_name, source, status) SELECT 'c' || i || '@x.com', 'C', 'footer', 'confirmed' FROM n",
    ).run();
    const res = await get("/api/leads?limit=5000", admin);
    expect(await res.json<unknown[]>()).toHaveLength(1000);
    expect(res.headers.get("link")).toContain("limit=1000");
  });

  it.each(["0", "-1", "abc", "1.5"])("400 for limit=%s", async (limit) => {
    const res = await get(`/api/leads?limit=${limit}`, admin);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: expect.any(String) });
  });

  it("400 for a cursor it did not give out", async () => {
    expect((await get("/api/leads?cursor=nope", admin)).status).toBe(400);
  });
});

describe("GET /api/leads/stats", () => {
  it("answers total, thisWeek and bySource", async () => {
    await insertLeads([
      { email: "a@x.com", source: "blog" },
      { email: "b@x.com", source: "footer", ago: 8 * DAY },
      { email: "c@x.com", source: "blog", ago: 6 * DAY },
    ]);
    const res = await get("/api/leads/stats", admin);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ total: 3, thisWeek: 2, bySource: { blog: 2, footer: 1 } });
  });
});

describe("CSV export", () => {
  it("downloads every lead as a dated, uncached attachment", async () => {
    await insertLeads([{ email: "zoe@x.com", firstName: "Zoë", lastName: '=cmd|"/c calc"' }]);
    const res = await get("/admin/leads.csv", admin);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const today = new Date().toISOString().slice(0, 10);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="afx-leads-${today}.csv"`);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await res.arrayBuffer());
    expect(text.startsWith(`\uFEFF${csvRow(CSV_HEADER)}`)).toBe(true);
    expect(text).toContain(`"zoe@x.com","Zoë","'=cmd|""/c calc""","footer","`);
    expect(text.endsWith("\r\n")).toBe(true);
  });

  it("is blocked with no leads", async () => {
    const res = await get("/admin/leads.csv", admin);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: "No leads to export" });
  });
});

describe("/admin/leads", () => {
  it("streams to a script's request: 5-row skeletons first, then the stat cards, sources, growth and subscribers", async () => {
    await insertLeads([
      { email: "new@x.com", source: "popup", firstName: "Nia", lastName: "Ng" },
      { email: "b1@x.com", source: "blog", ago: 3 * DAY },
      { email: "b2@x.com", source: "blog", ago: 9 * DAY },
      { email: "old@x.com", source: "footer", ago: 45 * DAY },
    ]);
    const res = await get("/admin/leads", admin, { headers: { "Sec-Fetch-Mode": "cors" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const html = await res.text();
    // A document request (a navigation) gets every part in the HTML: no skeleton, no streamed script.
    const document = await (await get("/admin/leads", admin, { headers: { "Sec-Fetch-Mode": "navigate" } })).text();
    expect(document).not.toContain('data-testid="skeleton-row"');
    expect(document).not.toMatch(/<script[^>]*\basync[^>]*>__remixContext/);
    expect(document).toMatch(/data-testid="stat-total-subscribers"[^>]*>4</);
    // Each of the three list cards has its 5-row skeleton in the shell sent before the data.
    expect(html.match(/data-testid="skeleton-row"/g)).toHaveLength(15);
    expect(html).toMatch(/data-testid="stat-total-subscribers"[^>]*>4</);
    expect(html).toMatch(/data-testid="stat-this-week"[^>]*>\+2</);
    expect(html).toMatch(/data-testid="stat-top-source"[^>]*>blog</);
    expect(html).toContain("50.0%");
    expect(html).toContain("25.0%");
    // The source bars' widths are SVG attributes: a style attribute would be refused by the CSP.
    expect(html).toContain('<rect width="50%"');
    expect(html).not.toMatch(/<[a-zA-Z][^<>]*\sstyle=/);
    expect(html).toContain('data-testid="growth-chart"');
    expect(html.match(/data-testid="growth-row"/g)).toHaveLength(3);
    expect(html.match(/data-testid="subscriber-row"/g)).toHaveLength(4);
    expect(html).toContain("Nia Ng");
    expect(html).toContain('href="/admin/leads.csv"');
  });

  it("with no leads: N/A, 'No subscribers yet' and a disabled Export CSV", async () => {
    const html = await (await get("/admin/leads", admin)).text();
    expect(html).toMatch(/data-testid="stat-top-source"[^>]*>N\/A</);
    expect(html).toMatch(/data-testid="stat-this-week"[^>]*>\+0</);
    expect(html).toContain("No subscribers yet");
    expect(html).not.toContain('href="/admin/leads.csv"');
    expect(html).toMatch(/<button[^>]*disabled[^>]*>.*?Export CSV/s);
  });
});
