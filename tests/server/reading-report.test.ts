// The owner's reading report (docs/decisions/116): the room page's chart and table per document,
// each investor's "Reading report" with opens and, for a consenting investor, seconds per page.
// Readings are written straight into D1 here; the viewer's beacon has its own checks.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { action as createRoom } from "~/routes/admin.rooms";
import { action as changeRoom, loader as roomAdmin } from "~/routes/admin.rooms_.$id";
import { loader as investorReport } from "~/routes/admin.rooms_.$id_.investors.$invitation";
import { ADMIN, asResponse, callRoute, ORIGIN, signedIn } from "./route-args";

beforeEach(async () => {
  await env.DB.batch([
    env.DB.prepare("DELETE FROM rooms"),
    env.DB.prepare("DELETE FROM investors"),
    env.DB.prepare("DELETE FROM audit_log"),
    env.DB.prepare("DELETE FROM mail_outbox"),
  ]);
});

const deck = async () =>
  (await env.DB.prepare(
    "SELECT id, current_version_id AS version FROM documents WHERE title = 'FiscalMe Pitch Deck'",
  ).first<{ id: string; version: number }>())!;

async function setUp() {
  const admin = await signedIn(ADMIN);
  const res = asResponse(
    await callRoute(createRoom, {
      path: "/admin/rooms",
      form: { title: "FiscalMe seed round", venture: "fiscal-me", nda: "Keep it to yourself." },
      cookie: admin,
    }),
  );
  expect(res.status).toBe(303);
  const id = new URL(res.headers.get("Location")!, ORIGIN).pathname.split("/").pop()!;
  const change = (form: Record<string, string>) =>
    callRoute(changeRoom, { path: `/admin/rooms/${id}`, params: { id }, form, cookie: admin }).then(asResponse);
  const { id: doc, version } = await deck();
  expect((await change({ intent: "add-document", document: doc })).status).toBe(303);
  for (const [email, name] of [
    ["ada@northwind.example", "Ada Reader"],
    ["bo@southwind.example", "Bo Decliner"],
  ] as const)
    expect((await change({ intent: "invite", email, name, firm: "Northwind Capital" })).status).toBe(303);
  const invitations = (
    await env.DB.prepare(
      "SELECT ri.id FROM room_invitations ri JOIN investors i ON i.id = ri.investor_id WHERE ri.room_id = ? ORDER BY i.email",
    )
      .bind(id)
      .all<{ id: number }>()
  ).results.map((r) => r.id);
  const [ada, bo] = invitations as [number, number];
  const now = Date.now();
  await env.DB.batch([
    env.DB.prepare("UPDATE room_invitations SET first_opened_at = ? WHERE room_id = ?").bind(now, id),
    env.DB.prepare("INSERT INTO room_preferences (invitation_id, analytics_at, updated_at) VALUES (?, ?, ?)").bind(
      ada,
      now,
      now,
    ),
    ...[ada, bo].map((inv) =>
      env.DB.prepare(
        "INSERT INTO room_views (invitation_id, document_id, version_id, kind, at) VALUES (?, ?, ?, 'open', ?)",
      ).bind(inv, doc, version, now),
    ),
    env.DB.prepare(
      "INSERT INTO room_readings (id, invitation_id, document_id, version_id, page_count, started_at, last_report_at) VALUES ('r1', ?, ?, ?, 3, ?, ?)",
    ).bind(ada, doc, version, now, now),
    env.DB.prepare("INSERT INTO room_page_times (reading_id, page, ms) VALUES ('r1', 1, 12000), ('r1', 2, 12400)"),
  ]);
  return { admin, id, ada, bo };
}

const report = (id: string, invitation: number | string, cookie?: string) =>
  callRoute(investorReport, {
    path: `/admin/rooms/${id}/investors/${invitation}`,
    params: { id, invitation: String(invitation) },
    cookie,
  }).then(asResponse);

interface Report {
  investor: { name: string; analytics: boolean };
  versions: { document: string; firstOpenedAt: number | null; pages: { page: number; seconds: string }[] }[];
}

describe("the owner's reading report", () => {
  it("shows a consenting investor's seconds per page, and only opens for one who declined", async () => {
    const { admin, id, ada, bo } = await setUp();
    const first = await report(id, ada, admin);
    expect(first.status).toBe(200);
    const a = await first.json<Report>();
    expect(a.investor.analytics).toBe(true);
    expect(a.versions).toHaveLength(1);
    expect(a.versions[0]!.document).toBe("FiscalMe Pitch Deck");
    expect(a.versions[0]!.firstOpenedAt).not.toBeNull();
    expect(a.versions[0]!.pages).toEqual([
      { page: 1, seconds: "12 s" },
      { page: 2, seconds: "12 s" },
    ]);
    const b = await (await report(id, bo, admin)).json<Report>();
    expect(b.investor.analytics).toBe(false);
    expect(b.versions[0]!.firstOpenedAt).not.toBeNull();
    expect(b.versions[0]!.pages).toEqual([]);
  });

  it("gives the room a chart's figures per document, pages nobody reached included", async () => {
    const { admin, id } = await setUp();
    const res = await callRoute(roomAdmin, { path: `/admin/rooms/${id}`, params: { id }, cookie: admin }).then(
      asResponse,
    );
    const data = await res.json<{ charts: { title: string; figures: unknown[] }[] }>();
    expect(data.charts).toEqual([
      {
        documentId: (await deck()).id,
        title: "FiscalMe Pitch Deck",
        figures: [
          { page: 1, readers: 1, medianSeconds: 12 },
          { page: 2, readers: 1, medianSeconds: 12.4 },
          { page: 3, readers: 0, medianSeconds: 0 },
        ],
      },
    ]);
  });

  it("is the not-found page for a visitor, a member, another room and an unknown invitation", async () => {
    const { admin, id, ada } = await setUp();
    expect((await report(id, ada)).status).toBe(404);
    expect((await report(id, ada, await signedIn("member@example.com"))).status).toBe(404);
    expect((await report("AAAAAAAAAAAAAAAA", ada, admin)).status).toBe(404);
    expect((await report(id, 999999, admin)).status).toBe(404);
    expect((await report(id, "x1", admin)).status).toBe(404);
  });
});
