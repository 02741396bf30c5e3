// The newsletter host's hand-off (issue 52): the page's guard, the export in each host's columns
// and scopes, the consent records, and the import of a host's export that ends here who left
// there; each route's loader and action called directly over the real local D1.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { action, loader } from "~/routes/admin.subscribers.handoff";
import { action as exportAction } from "~/routes/admin.subscribers.handoff_.export";
import { loader as consentCsv } from "~/routes/admin.subscribers.handoff_.$id.consent[.]csv";
import { loader as dashboard } from "~/routes/admin.leads/route";
import { leads, type NewLead } from "~/db/schema";
import { CONSENT_RECORD_COLUMNS } from "~/features/handoff/handoff.server";
import { IMPORT_COLUMNS, parseCsv } from "~/features/handoff/hosts";
import { CONSENT_COPY } from "~/features/leads/newsletter";
import { erasePerson } from "~/features/privacy/erase.server";
import { getDb } from "~/utils/db.server";
import { ADMIN, asResponse, callRoute, signedIn } from "./route-args";

const PATH = "/admin/subscribers/handoff";
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 1);

async function lead(email: string, over: Partial<NewLead> = {}) {
  const [row] = await getDb(env)
    .insert(leads)
    .values({
      email,
      firstName: "Ada",
      lastName: "Lovelace",
      source: "footer",
      pagePath: "/blog",
      userAgent: "Mozilla/5.0 (secret browser)",
      subscribedAt: new Date(T0),
      status: "confirmed",
      consentVersion: "2026-11-consent-1",
      confirmedAt: new Date(T0 + DAY),
      ...over,
    })
    .returning();
  return row!;
}

const statusOf = async (email: string, topic = "newsletter") =>
  (
    await env.DB.prepare("SELECT status FROM leads WHERE email = ?1 AND topic = ?2")
      .bind(email, topic)
      .first<{ status: string }>()
  )?.status;

async function exportCsv(format: string, scope: string, cookie: string) {
  const res = asResponse(await callRoute(exportAction, { path: `${PATH}/export`, form: { format, scope }, cookie }));
  return { res, rows: res.ok ? parseCsv(await res.clone().text())! : [] };
}

function upload(name: string, content: BlobPart, type = "text/csv") {
  const form = new FormData();
  form.set("file", new File([content], name, { type }));
  return form;
}

async function importFile(form: FormData, cookie: string) {
  const res = asResponse(await callRoute(action, { path: PATH, multipart: form, cookie }));
  return { res, data: await res.json<{ import: Record<string, unknown> }>() };
}

let admin: string;
beforeEach(async () => {
  await env.DB.batch([
    env.DB.prepare("DELETE FROM handoff_leads"),
    env.DB.prepare("DELETE FROM subscriber_handoffs"),
    env.DB.prepare("DELETE FROM leads"),
    env.DB.prepare("DELETE FROM audit_log"),
    env.DB.prepare("DELETE FROM mail_outbox"),
  ]);
  admin = await signedIn(ADMIN);
});

describe("the page's guard", () => {
  it("answers visitors and members the not-found page, loader and action alike", async () => {
    const member = await signedIn("member@example.com");
    for (const cookie of [undefined, member]) {
      expect(asResponse(await callRoute(loader, { path: PATH, cookie })).status).toBe(404);
      for (const handler of [action, exportAction]) {
        const post = asResponse(
          await callRoute(handler, { path: PATH, form: { format: "substack", scope: "all" }, cookie }),
        );
        expect(post.status).toBe(404);
      }
    }
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM subscriber_handoffs").first("n")).toBe(0);
  });

  it("answers an admin the hand-offs, the counts and the import limit", async () => {
    await lead("ada@example.com");
    const res = asResponse(await callRoute(loader, { path: PATH, cookie: admin }));
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await res.json()).toMatchObject({
      handoffs: [],
      counts: { handedOff: 0, notYet: 1 },
      importMaxBytes: 1024 * 1024,
    });
  });
});

describe("the export", () => {
  beforeEach(async () => {
    await lead("ada@example.com");
    await lead("pending@example.com", { status: "pending", confirmedAt: null });
    await lead("alerts@example.com", { topic: "alerts", consentVersion: "2026-11-alerts-1" });
    await lead("gone@example.com", { status: "unsubscribed", unsubscribedAt: new Date(T0 + 2 * DAY) });
    await lead("bounced@example.com", { status: "undeliverable" });
    await lead("folded@example.com", { suppressedAt: new Date(T0 + 3 * DAY) });
  });

  it("scope new: a CSV attachment holding the confirmed subscriber only; a second new no longer, all again", async () => {
    const first = await exportCsv("substack", "new", admin);
    expect(first.res.status).toBe(200);
    expect(first.res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(first.res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="afx-subscribers-substack-/);
    expect(first.rows).toEqual([["email"], ["ada@example.com"]]);

    // Nobody new: no empty file and no hand-off of 0, but the page saying so.
    const second = await exportCsv("substack", "new", admin);
    expect(second.res.status).toBe(303);
    expect(second.res.headers.get("Location")).toBe(`${PATH}?export=nobody-new`);
    const said = await asResponse(await callRoute(loader, { path: `${PATH}?export=nobody-new`, cookie: admin })).json();
    expect(said).toMatchObject({ nobodyNew: true });

    const all = await exportCsv("substack", "all", admin);
    expect(all.rows).toEqual([["email"], ["ada@example.com"]]);

    // Each hand-off recorded (who, which host and scope, how many), newest first, and audited.
    const page = await asResponse(await callRoute(loader, { path: PATH, cookie: admin })).json<{
      handoffs: { actor: string; format: string; scope: string; count: number }[];
      counts: { handedOff: number; notYet: number };
    }>();
    expect(page.handoffs.map((h) => [h.actor, h.format, h.scope, h.count])).toEqual([
      [ADMIN, "substack", "all", 1],
      [ADMIN, "substack", "new", 1],
    ]);
    expect(page.counts).toEqual({ handedOff: 1, notYet: 0 });
    const audit = await env.DB.prepare("SELECT action, detail FROM audit_log ORDER BY id").all();
    expect(audit.results).toEqual([
      { action: "subscribers.handoff", detail: "Substack CSV, scope new" },
      { action: "subscribers.handoff", detail: "Substack CSV, scope all" },
    ]);
    // The lead keeps when it was first handed off; an "all" export does not move it.
    const handed = await env.DB.prepare("SELECT handed_off_at FROM leads WHERE email = 'ada@example.com'").first(
      "handed_off_at",
    );
    expect(handed).toBeTypeOf("number");
  });

  it("Ghost's and Buttondown's import columns, formula-safe cells", async () => {
    await lead("formula@example.com", { firstName: "=HYPERLINK(1)", lastName: null, source: "-x" });
    const ghost = await exportCsv("ghost", "all", admin);
    expect(ghost.rows[0]).toEqual(["email", "name", "note", "subscribed_to_emails", "labels", "created_at"]);
    expect(ghost.rows[0]).toEqual([...IMPORT_COLUMNS.ghost]);
    const ada = ghost.rows.find((r) => r[0] === "ada@example.com")!;
    expect(ada[1]).toBe("Ada Lovelace");
    expect(ada[3]).toBe("true");
    expect(ada[4]).toBe("footer");
    expect(ada[5]).toBe(new Date(T0).toISOString());
    expect(ada[2]).toContain("consent 2026-11-consent-1");
    const formula = ghost.rows.find((r) => r[0] === "formula@example.com")!;
    expect(formula[1]).toBe("'=HYPERLINK(1)");
    expect(formula[4]).toBe("'-x");
    expect(ghost.rows).toHaveLength(3);

    const buttondown = await exportCsv("buttondown", "all", admin);
    expect(buttondown.rows[0]).toEqual(["email", "notes", "tags", "created_at"]);
    expect(buttondown.rows.map((r) => r[0]).sort()).toEqual(["ada@example.com", "email", "formula@example.com"]);
  });

  it("the page's own action answers a form post with the same file (a data request, a direct call)", async () => {
    const res = asResponse(
      await callRoute(action, { path: PATH, form: { format: "ghost", scope: "new" }, cookie: admin }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="afx-subscribers-ghost-/);
    expect(parseCsv(await res.text())!.map((r) => r[0])).toEqual(["email", "ada@example.com"]);
  });

  it("refuses a host or scope it does not know, and records nothing", async () => {
    for (const form of [
      { format: "mailchimp", scope: "all" },
      { format: "substack", scope: "some" },
    ]) {
      for (const handler of [exportAction, action]) {
        const res = asResponse(await callRoute(handler, { path: `${PATH}/export`, form, cookie: admin }));
        expect(res.status).toBe(400);
      }
    }
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM subscriber_handoffs").first("n")).toBe(0);
  });
});

describe("the consent records", () => {
  it("per address of the hand-off: the wording, its version, how, where from, when; nothing more", async () => {
    await lead("ada@example.com");
    await lead("member@example.com", { consentMethod: "verified-member", pagePath: null, source: "settings" });
    await exportCsv("ghost", "new", admin);
    const [{ id }] = (await env.DB.prepare("SELECT id FROM subscriber_handoffs").all<{ id: number }>()).results as [
      { id: number },
    ];
    const res = asResponse(
      await callRoute(consentCsv, { path: `${PATH}/${id}/consent.csv`, params: { id: String(id) }, cookie: admin }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="afx-consent-records-ghost-/);
    const text = await res.text();
    const rows = parseCsv(text)!;
    expect(rows[0]).toEqual([...CONSENT_RECORD_COLUMNS]);
    expect(rows.slice(1)).toEqual([
      [
        "ada@example.com",
        CONSENT_COPY["2026-11-consent-1"],
        "2026-11-consent-1",
        "double-opt-in",
        "footer",
        `${env.SITE_URL}/blog`,
        new Date(T0).toISOString(),
        new Date(T0 + DAY).toISOString(),
      ],
      [
        "member@example.com",
        CONSENT_COPY["2026-11-consent-1"],
        "2026-11-consent-1",
        "verified-member",
        "settings",
        "",
        new Date(T0).toISOString(),
        new Date(T0 + DAY).toISOString(),
      ],
    ]);
    expect(text).not.toContain("Lovelace");
    expect(text).not.toContain("secret browser");

    // An erased person leaves every hand-off's records.
    await erasePerson(env, "member@example.com", { actor: "test" });
    const after = asResponse(
      await callRoute(consentCsv, { path: `${PATH}/${id}/consent.csv`, params: { id: String(id) }, cookie: admin }),
    );
    expect(parseCsv(await after.text())!.map((r) => r[0])).toEqual(["email", "ada@example.com"]);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM handoff_leads").first("n")).toBe(1);
  });

  it("answers others as the leads CSV does, and an unknown hand-off 404", async () => {
    const visitor = asResponse(await callRoute(consentCsv, { path: `${PATH}/1/consent.csv`, params: { id: "1" } }));
    expect(visitor.status).toBe(401);
    const unknown = asResponse(
      await callRoute(consentCsv, { path: `${PATH}/99/consent.csv`, params: { id: "99" }, cookie: admin }),
    );
    expect(unknown.status).toBe(404);
  });
});

describe("the import of a host's export", () => {
  beforeEach(async () => {
    await lead("ada@example.com");
    await lead("ada@example.com", { topic: "alerts", consentVersion: "2026-11-alerts-1" });
    await lead("grace@example.com");
    await lead("already@example.com", { status: "unsubscribed", unsubscribedAt: new Date(T0) });
    // Every one of them handed off now, after its confirmation.
    await exportCsv("substack", "all", admin);
    await env.DB.prepare("DELETE FROM audit_log").run();
  });

  /** The preview's confirm form posted back as the page posts it. */
  async function confirmEnd(preview: Record<string, unknown>) {
    const form = new FormData();
    form.set("intent", "end");
    form.set("format", String(preview.format));
    form.set("leads", (preview.endIds as number[]).join(","));
    return importFile(form, admin);
  }

  it("Substack: previews first (nothing changed), then ends email_disabled here (named, audited, no mail, alerts kept)", async () => {
    const csv = [
      "email,active_subscription,expiry,email_disabled,created_at",
      "ADA@example.com,false,,true,2026-11-02T00:00:00.000Z",
      "grace@example.com,false,,false,2026-11-02T00:00:00.000Z",
      "already@example.com,false,,true,2026-11-02T00:00:00.000Z",
      "stranger@example.com,false,,true,2026-11-02T00:00:00.000Z",
      "",
    ].join("\r\n");
    const { res, data } = await importFile(upload("substack.csv", csv), admin);
    expect(res.status).toBe(200);
    const adaId = (await env.DB.prepare(
      "SELECT id FROM leads WHERE email = 'ada@example.com' AND topic = 'newsletter'",
    ).first("id")) as number;
    expect(data.import).toEqual({
      ok: true,
      step: "preview",
      format: "substack",
      read: 4,
      matched: 3,
      unknown: 1,
      endIds: [adaId],
      toEnd: { count: 1, first: ["ada@example.com"] },
      kept: { count: 0, first: [] },
      folded: { count: 0, first: [] },
    });
    // The preview changed nothing.
    expect(await statusOf("ada@example.com")).toBe("confirmed");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log").first("n")).toBe(0);

    const done = await confirmEnd(data.import);
    expect(done.res.status).toBe(200);
    expect(done.data.import).toEqual({
      ok: true,
      step: "done",
      format: "substack",
      ended: { count: 1, first: ["ada@example.com"] },
    });
    expect(await statusOf("ada@example.com")).toBe("unsubscribed");
    expect(await statusOf("ada@example.com", "alerts")).toBe("confirmed");
    expect(await statusOf("grace@example.com")).toBe("confirmed");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM mail_outbox").first("n")).toBe(0);
    const audit = await env.DB.prepare("SELECT actor, action, target, detail FROM audit_log").all();
    expect(audit.results).toEqual([
      {
        actor: ADMIN,
        action: "subscribers.import",
        target: `lead #${adaId} (a***@example.com)`,
        detail: "Substack export: left on the host, newsletter ended here",
      },
    ]);
    // Nothing else of the lead changed: its name, consent and times stay.
    const row = await env.DB.prepare(
      "SELECT first_name, consent_version, confirmed_at FROM leads WHERE email = 'ada@example.com' AND topic = 'newsletter'",
    ).first();
    expect(row).toEqual({ first_name: "Ada", consent_version: "2026-11-consent-1", confirmed_at: T0 + DAY });
    // An "all" export no longer holds them; a second press ends nothing more.
    const all = await exportCsv("substack", "all", admin);
    expect(all.rows).toEqual([["email"], ["grace@example.com"]]);
    expect((await confirmEnd(data.import)).data.import).toMatchObject({ ended: { count: 0 } });
  });

  it("a reader who left the host and subscribed again here since is reported and kept; one never handed off too", async () => {
    // Grace confirmed here again after her hand-off; Nora never went to the host.
    await env.DB.prepare("UPDATE leads SET confirmed_at = ?1 WHERE email = 'grace@example.com'")
      .bind(Date.now() + DAY)
      .run();
    await lead("nora@example.com");
    const csv = [
      "email,active_subscription,expiry,email_disabled,created_at",
      "grace@example.com,false,,true,",
      "nora@example.com,false,,true,",
    ].join("\n");
    const { data } = await importFile(upload("substack.csv", csv), admin);
    expect(data.import).toMatchObject({
      matched: 2,
      endIds: [],
      toEnd: { count: 0 },
      kept: { count: 2, first: ["grace@example.com", "nora@example.com"] },
    });
    // Even a hand-crafted confirm for them ends nothing.
    const ids = (await env.DB.prepare("SELECT id FROM leads WHERE topic = 'newsletter'").all<{ id: number }>()).results;
    const done = await confirmEnd({ format: "substack", endIds: ids.map((r) => r.id).filter(Boolean) });
    expect(done.data.import).toMatchObject({ ended: { count: 1, first: ["ada@example.com"] } });
    expect(await statusOf("grace@example.com")).toBe("confirmed");
    expect(await statusOf("nora@example.com")).toBe("confirmed");
  });

  it("matches addresses as stored, ASCII letters folded only: a Kelvin sign is reported, never ended", async () => {
    await lead("kate@example.com");
    await exportCsv("substack", "all", admin);
    const csv = [
      "email,active_subscription,expiry,email_disabled,created_at",
      "\u212Aate@example.com,false,,true,",
    ].join("\n");
    const { data } = await importFile(upload("substack.csv", csv), admin);
    expect(data.import).toMatchObject({
      read: 1,
      matched: 0,
      unknown: 1,
      endIds: [],
      toEnd: { count: 0 },
      folded: { count: 1, first: ["\u212Aate@example.com"] },
    });
    expect(await statusOf("kate@example.com")).toBe("confirmed");
  });

  it("Ghost: subscribed_to_emails false; Buttondown: its unsubscribed types", async () => {
    const ghost = [
      "email,name,note,subscribed_to_emails,complimentary_plan,stripe_customer_id,created_at,labels",
      'ada@example.com,"Ada, L",,false,false,,2026-11-02T00:00:00.000Z,"a,b"',
      "grace@example.com,Grace,,true,false,,2026-11-02T00:00:00.000Z,",
    ].join("\n");
    const previewed = (await importFile(upload("members.csv", ghost), admin)).data.import;
    expect(previewed).toMatchObject({ format: "ghost", read: 2, toEnd: { count: 1 } });
    expect((await confirmEnd(previewed)).data.import).toMatchObject({ ended: { count: 1 } });
    expect(await statusOf("ada@example.com")).toBe("unsubscribed");
    expect(await statusOf("grace@example.com")).toBe("confirmed");
    const buttondown = ["id,email,notes,tags,creation_date,type", "1,grace@example.com,,,2026-11-02,unsubscribed"].join(
      "\n",
    );
    const second = (await importFile(upload("buttondown.csv", buttondown), admin)).data.import;
    expect(second).toMatchObject({ format: "buttondown", toEnd: { count: 1 } });
    await confirmEnd(second);
    expect(await statusOf("grace@example.com")).toBe("unsubscribed");
  });

  it("refuses a confirm with no ids or an unknown host, changing nothing", async () => {
    for (const [format, ids] of [
      ["substack", ""],
      ["mailchimp", "1"],
    ] as const) {
      const form = new FormData();
      form.set("intent", "end");
      form.set("format", format);
      form.set("leads", ids);
      expect((await importFile(form, admin)).res.status).toBe(400);
    }
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log").first("n")).toBe(0);
  });

  it("refuses a binary file, an unknown CSV and no file with the reason, and changes nothing", async () => {
    const binary = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0xff, 0xfe]);
    for (const form of [
      upload("photo.png", binary, "image/png"),
      upload("pdf.csv", "%PDF-1.7\n\u0000\u0001binary"),
      upload("people.csv", "address,unsubscribed\nada@example.com,true\n"),
      upload("empty.csv", ""),
    ]) {
      const { res, data } = await importFile(form, admin);
      expect(res.status).toBe(400);
      expect(data.import).toMatchObject({ ok: false, reason: expect.any(String) });
    }
    expect(await statusOf("ada@example.com")).toBe("confirmed");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log").first("n")).toBe(0);
  });

  it("refuses a file over IMPORT_MAX_BYTES with 413, read no further, changing nothing", async () => {
    const header = "email,active_subscription,expiry,email_disabled,created_at\n";
    const line = "ada@example.com,false,,true,2026-11-02\n";
    const big = header + line.repeat(Math.ceil((1024 * 1024) / line.length) + 1);
    const { res, data } = await importFile(upload("substack.csv", big), admin);
    expect(res.status).toBe(413);
    expect(data.import.reason).toContain("1 MiB");
    expect(await statusOf("ada@example.com")).toBe("confirmed");
  });

  it("is the admin's alone", async () => {
    const member = await signedIn("member@example.com");
    const csv = "email,active_subscription,expiry,email_disabled,created_at\nada@example.com,false,,true,\n";
    const res = asResponse(await callRoute(action, { path: PATH, multipart: upload("s.csv", csv), cookie: member }));
    expect(res.status).toBe(404);
    expect(await statusOf("ada@example.com")).toBe("confirmed");
  });
});

describe("the leads dashboard's counts", () => {
  it("subscribers handed off and not yet, and alerts subscribers by venture", async () => {
    await lead("ada@example.com");
    await lead("grace@example.com");
    await lead("pending@example.com", { status: "pending", confirmedAt: null });
    const alerts = { topic: "alerts" as const, consentVersion: "2026-11-alerts-1" };
    await lead("all@example.com", alerts);
    await lead("gaas@example.com", { ...alerts, alertVentures: '["gaas"]' });
    await lead("both@example.com", { ...alerts, alertVentures: '["gaas","fiscal-me"]' });
    await lead("off@example.com", { ...alerts, status: "unsubscribed", alertVentures: '["gaas"]' });
    await exportCsv("substack", "new", admin);
    await lead("late@example.com");
    const answer = (await callRoute(dashboard, { path: "/admin/leads", cookie: admin })) as unknown as {
      data: {
        audience: Promise<{ handoff: unknown; alerts: { all: number; ventures: { id: string; chose: number }[] } }>;
      };
    };
    const audience = await answer.data.audience;
    expect(audience.handoff).toEqual({ handedOff: 2, notYet: 1 });
    expect(audience.alerts.all).toBe(1);
    const chose = Object.fromEntries(audience.alerts.ventures.map((v) => [v.id, v.chose]));
    expect(chose).toMatchObject({ gaas: 2, "fiscal-me": 1, vctr: 0 });
  });
});
