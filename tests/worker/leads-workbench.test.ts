// The leads workbench (issue 13 parts 1, 2 and 5): filters in the URL, counts and CSV that follow
// them, keyset paging under filters, every filter an index range at 100 000 leads, and the row
// actions behind a confirmation step, audited, refused to members and to other sites.
import { env, SELF } from "cloudflare:test";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { filterCondition, type LeadFilters } from "~/features/leads/lead-filters.server";
import { leadPageQuery } from "~/features/leads/lead-list.server";
import { toQuery } from "~/utils/db.server";
import { get, ORIGIN, signIn, type Jar } from "./auth-helpers";
import { insertLeads } from "./leads-helpers";

const DAY = 24 * 60 * 60 * 1000;
let admin: Jar;
let member: Jar;
beforeAll(async () => {
  admin = (await signIn("admin@example.com")).jar;
  member = (await signIn("member-workbench@example.com")).jar;
});

const post = (path: string, body: Record<string, string>, jar?: Jar, headers: Record<string, string> = {}) =>
  SELF.fetch(`${ORIGIN}${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: ORIGIN,
      Host: new URL(ORIGIN).host,
      ...(jar ? { Cookie: jar.header() } : {}),
      ...headers,
    },
    body: new URLSearchParams(body).toString(),
    redirect: "manual",
  });

const NOW = Date.UTC(2026, 10, 24, 12);

describe("every filter is an index range at 100 000 leads", () => {
  beforeAll(async () => {
    await env.DB.prepare("DELETE FROM leads").run();
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
       INSERT INTO leads (email, first_name, last_name, source, subscribed_at, status)
       SELECT 'lead' || i || '@x.com', 'Name' || (i % 997), 'Family' || (i % 991),
         CASE i % 4 WHEN 0 THEN 'footer' WHEN 1 THEN 'blog' WHEN 2 THEN 'popup' ELSE 'partners' END,
         ?1 - i * 60000, CASE WHEN i % 10 = 0 THEN 'pending' WHEN i % 10 = 1 THEN 'unsubscribed' ELSE 'confirmed' END
       FROM n`,
    )
      .bind(NOW)
      .run();
    await env.DB.prepare("ANALYZE").run();
  });

  const cases: [string, LeadFilters][] = [
    ["status", { status: "confirmed" }],
    ["status + source", { status: "pending", source: "blog" }],
    ["all + source", { status: "all", source: "blog" }],
    ["status + dates", { status: "confirmed", from: "2026-11-01", to: "2026-11-10" }],
    ["source + status + dates", { status: "confirmed", source: "footer", from: "2026-11-01", to: "2026-11-10" }],
    ["all + dates", { status: "all", from: "2026-11-01", to: "2026-11-10" }],
    ["e-mail prefix", { status: "all", q: "lead12@" }],
    ["name prefix", { status: "confirmed", q: "name99" }],
    ["a search matching nobody", { status: "confirmed", q: "nobody" }],
    [
      "search + source + dates",
      { status: "confirmed", source: "blog", q: "name9", from: "2026-11-01", to: "2026-11-10" },
    ],
  ];
  it.each(cases)("%s", async (_, filters) => {
    const { sql, params } = leadPageQuery(filters, { subscribedAt: NOW, id: 1e9 }, 26).toSQL();
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .bind(...params)
      .all<{ detail: string }>();
    const plan = results.map((r) => r.detail);
    // Every access to `leads` is a SEARCH on an index (a range), never a SCAN of the table.
    const access = plan.filter((d) => /\b(SCAN|SEARCH) leads\b/.test(d));
    expect(access.length, plan.join("\n")).toBeGreaterThan(0);
    for (const step of access) expect(step, plan.join("\n")).toMatch(/^SEARCH leads USING (COVERING )?INDEX/);
    // Without a search, newest first comes from the index itself: no sort of the matching rows.
    if (!filters.q) expect(plan.join("\n")).not.toMatch(/TEMP B-TREE/);
    // A search reads its matches through its prefix indexes, never a walk of the status or source
    // range checking each row (one matching nobody read every lead of the status).
    const searched = /leads_email_topic_unique|leads_(first|last)_name_lower_idx/;
    if (filters.q) for (const step of access) expect(step, plan.join("\n")).toMatch(searched);
    // And the count beside the list reads only the same range.
    const where = toQuery(filterCondition(filters));
    const count = await env.DB.prepare(`EXPLAIN QUERY PLAN SELECT COUNT(*) FROM leads WHERE ${where.sql}`)
      .bind(...where.params)
      .all<{ detail: string }>();
    if (filters.q)
      for (const r of count.results.filter((d) => /\b(SCAN|SEARCH) leads\b/.test(d.detail)))
        expect(r.detail).toMatch(searched);
  });
});

describe("/admin/leads workbench", () => {
  beforeEach(async () => {
    await env.DB.batch([
      env.DB.prepare("DELETE FROM leads"),
      env.DB.prepare("DELETE FROM audit_log"),
      env.DB.prepare("DELETE FROM suppressed_emails"),
    ]);
    const now = Date.now();
    await insertLeads(
      [
        { email: "ada@lovelace.org", firstName: "Ada", lastName: "Lovelace", source: "blog", ago: 1 * DAY },
        { email: "adam@smith.org", firstName: "Adam", lastName: "Smith", source: "footer", ago: 2 * DAY },
        { email: "grace@hopper.org", firstName: "Grace", lastName: "Hopper", source: "blog", ago: 3 * DAY },
        { email: "alan@turing.org", firstName: "Alan", lastName: "Turing", source: "blog", ago: 40 * DAY },
        { email: "pending@x.org", firstName: "Pat", source: "blog", ago: 1 * DAY, status: "pending" },
        { email: "gone@x.org", firstName: "Gus", source: "popup", ago: 5 * DAY, status: "unsubscribed" },
      ],
      now,
    );
  });

  const rows = (html: string) => [...html.matchAll(/data-testid="subscriber-row"><td[^>]*>([^<]+)</g)].map((m) => m[1]);

  it("filters from the URL (no JavaScript): search by e-mail or name prefix, source, status, dates; counts and the CSV link follow", async () => {
    let html = await (await get("/admin/leads?q=ADA", admin)).text();
    expect(rows(html).sort()).toEqual(["ada@lovelace.org", "adam@smith.org"]);
    expect(html).toContain('href="/admin/leads.csv?q=ada"');
    html = await (await get("/admin/leads?q=hop", admin)).text(); // a last name
    expect(rows(html)).toEqual(["grace@hopper.org"]);
    html = await (await get("/admin/leads?source=blog", admin)).text();
    expect(rows(html)).toEqual(["ada@lovelace.org", "grace@hopper.org", "alan@turing.org"]);
    expect(html).toMatch(
      /data-testid="filter-counts"[\s\S]*?1<!-- --> <!-- -->pending[\s\S]*?3<!-- --> <!-- -->confirmed[\s\S]*?0<!-- --> <!-- -->unsubscribed/,
    );
    html = await (await get("/admin/leads?source=blog&status=all", admin)).text();
    expect(rows(html)).toHaveLength(4);
    const today = new Date().toISOString().slice(0, 10);
    const weekAgo = new Date(Date.now() - 7 * DAY).toISOString().slice(0, 10);
    html = await (await get(`/admin/leads?from=${weekAgo}&to=${today}&status=unsubscribed`, admin)).text();
    expect(rows(html)).toEqual(["gone@x.org"]);
  });

  it("bad filters are a 400 with the reason beside the field, and list nothing", async () => {
    for (const [query, text] of [
      ["status=bogus", "Please choose confirmed, pending, unsubscribed, undeliverable or all."],
      ["from=2026-02-30", "Not a calendar date."],
      ["from=2026-11-10&to=2026-11-01", "The start date is after the end date."],
      ["source=%3Cscript%3E", "Not a source name."],
    ]) {
      const res = await get(`/admin/leads?${query}`, admin);
      expect(res.status, query).toBe(400);
      const html = await res.text();
      expect(html, query).toContain(text);
      expect(rows(html), query).toEqual([]);
      expect((await get(`/admin/leads.csv?${query}`, admin)).status, query).toBe(400);
    }
  });

  it("the CSV under filters holds exactly the filtered list; paging keeps the filters", async () => {
    const csv = await (await get("/admin/leads.csv?source=blog&status=all", admin)).text();
    const csvEmails = csv
      .split("\r\n")
      .slice(1, -1)
      .map((line) => line.split(",")[0]!.replaceAll('"', ""));
    const seen: string[] = [];
    let path: string | null = "/api/leads?source=blog&status=all&limit=1";
    while (path) {
      const res = await get(path, admin);
      seen.push(...((await res.json()) as { email: string }[]).map((l) => l.email));
      path = res.headers.get("link")?.match(/<([^>]+)>/)?.[1] ?? null;
      if (path) expect(path).toContain("source=blog");
    }
    expect(seen).toEqual(csvEmails);
    expect(seen.sort()).toEqual(["ada@lovelace.org", "alan@turing.org", "grace@hopper.org", "pending@x.org"]);
  });

  it("Unsubscribe and Delete: a confirmation step, then the action, each in the audit log shown on the page", async () => {
    const id = async (email: string) =>
      (await env.DB.prepare("SELECT id FROM leads WHERE email = ?").bind(email).first<{ id: number }>())!.id;
    const ada = await id("ada@lovelace.org");
    const confirm = await (await get(`/admin/leads/${ada}?confirm=unsubscribe`, admin)).text();
    expect(confirm).toContain("Unsubscribe this lead?");
    expect(confirm).toMatch(/<form method="post"[^>]*>[\s\S]*name="intent" value="unsubscribe"/);
    let res = await post(`/admin/leads/${ada}`, { intent: "unsubscribe" }, admin);
    expect(res.status).toBe(302);
    expect(await env.DB.prepare("SELECT status FROM leads WHERE id = ?").bind(ada).first()).toEqual({
      status: "unsubscribed",
    });

    const grace = await id("grace@hopper.org");
    expect(await (await get(`/admin/leads/${grace}?confirm=delete`, admin)).text()).toContain(
      "Delete this person&#x27;s data?",
    );
    res = await post(`/admin/leads/${grace}`, { intent: "delete" }, admin);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/admin/leads");
    expect(await env.DB.prepare("SELECT * FROM leads WHERE id = ?").bind(grace).first()).toBeNull();

    const { results: audit } = await env.DB.prepare("SELECT actor, action, target FROM audit_log ORDER BY id").all();
    expect(audit).toEqual([
      { actor: "admin@example.com", action: "lead.unsubscribe", target: `lead #${ada} (a***@lovelace.org)` },
      { actor: "admin@example.com", action: "lead.delete", target: `lead #${grace} (g***@hopper.org)` },
    ]);
    const deleted = await env.DB.prepare("SELECT detail FROM audit_log WHERE action = 'lead.delete'").first<{
      detail: string;
    }>();
    expect(deleted!.detail).toBe("was confirmed; erased lead");
    // Only a keyed hash of the address stays, so it is never mailed or re-added.
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM suppressed_emails").first())!.n).toBe(1);
    // The erased address is nowhere in the audit log.
    expect(JSON.stringify(audit)).not.toContain("grace@");
    const page = await (await get("/admin/leads", admin)).text();
    expect(page.match(/data-testid="audit-entry"/g)).toHaveLength(2);
  });

  it("members, anonymous visitors and other sites cannot act; bad input is a clear 4xx; nothing changes", async () => {
    const ada = (await env.DB.prepare("SELECT id FROM leads WHERE email = 'ada@lovelace.org'").first<{ id: number }>())!
      .id;
    expect((await get(`/admin/leads/${ada}`, member)).status).toBe(404);
    expect((await get(`/admin/leads/${ada}`)).status).toBe(404);
    // Refused by the one admin guard as the page is: not found (like /admin/messages' toggle).
    expect((await post(`/admin/leads/${ada}`, { intent: "delete" }, member)).status).toBe(404);
    expect((await post(`/admin/leads/${ada}`, { intent: "delete" })).status).toBe(404);
    expect(
      (await post(`/admin/leads/${ada}`, { intent: "delete" }, admin, { Origin: "https://evil.example" })).status,
    ).toBe(403);
    expect(
      (await post(`/admin/leads/${ada}`, { intent: "delete" }, admin, { Origin: "", "Sec-Fetch-Site": "cross-site" }))
        .status,
    ).toBe(403);
    expect((await post(`/admin/leads/${ada}`, { intent: "explode" }, admin)).status).toBe(400);
    expect((await post("/admin/leads/999999", { intent: "delete" }, admin)).status).toBe(404);
    expect((await post("/admin/leads/abc", { intent: "delete" }, admin)).status).toBe(404);
    expect(await env.DB.prepare("SELECT status FROM leads WHERE id = ?").bind(ada).first()).toEqual({
      status: "confirmed",
    });
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log").first())!.n).toBe(0);
  });
});
