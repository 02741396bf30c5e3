// The newsletter's and the lead workbench's routes, their loaders and actions called directly:
// validation, guards, the CSV and the lead's own page, each in a few milliseconds without a build.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { action as signupAction, loader as leadsApi } from "~/routes/api.leads";
import { loader as leadStats } from "~/routes/api.leads.stats";
import { loader as csv } from "~/routes/admin.leads[.]csv";
import { action as leadAction, loader as leadPage } from "~/routes/admin.leads_.$id";
import { loader as workbench } from "~/routes/admin.leads/route";
import { action as confirmAction, loader as confirmPage } from "~/routes/newsletter.confirm.$token";
import { action as unsubscribeAction, loader as unsubscribePage } from "~/routes/newsletter.unsubscribe.$token";
import { unsubscribeToken } from "~/features/leads/subscription.server";
import { CSV_HEADER, csvRow } from "~/features/leads/csv.server";
import { LISTED } from "~/features/leads/lead-list.server";
import { ALERTS_TEXT, NEWSLETTER_TEXT, subscriptionText } from "~/features/leads/newsletter";
import { CONFIRMATION_KIND } from "~/features/leads/confirmation-mail.server";
import { ALERTS_CONFIRMATION_KIND, senderOf } from "~/features/mail/message";
import { randomToken, sha256Hex } from "~/utils/crypto.server";
import { loader as confirmedPage } from "~/routes/newsletter.confirmed";
import { preferencesToken } from "~/features/alerts/preferences.server";
import { ADMIN, asResponse, callRoute, signedIn } from "./route-args";

const signup = (over: Record<string, unknown> = {}) => ({
  email: "ada@example.com",
  firstName: "Ada",
  lastName: "Lovelace",
  source: "footer",
  ...over,
});

async function leadRow(email = "ada@example.com") {
  return env.DB.prepare("SELECT * FROM leads WHERE email = ?1").bind(email).first<Record<string, unknown>>();
}

beforeEach(async () => {
  await env.DB.batch([
    env.DB.prepare("DELETE FROM leads"),
    env.DB.prepare("DELETE FROM rate_limits"),
    env.DB.prepare("DELETE FROM audit_log"),
  ]);
});

describe("POST /api/leads (action)", () => {
  it("stores a pending lead and answers 201 with the fields the API lists", async () => {
    const res = asResponse(await callRoute(signupAction, { path: "/api/leads", json: signup() }));
    expect(res.status).toBe(201);
    const body = await res.json<Record<string, unknown>>();
    expect(Object.keys(body).sort()).toEqual(Object.keys(LISTED).sort());
    expect(await leadRow()).toMatchObject({ email: "ada@example.com", status: "pending" });
  });

  it("answers 400 with the field's message for a bad e-mail, and stores nothing", async () => {
    const res = asResponse(await callRoute(signupAction, { path: "/api/leads", json: signup({ email: "nope" }) }));
    expect(res.status).toBe(400);
    expect((await res.json<{ errors: Record<string, string[]> }>()).errors.email).toEqual([
      NEWSLETTER_TEXT.invalidEmail,
    ]);
    expect(await leadRow()).toBeNull();
  });

  it("answers 405 to anything but POST", async () => {
    const res = asResponse(await callRoute(signupAction, { path: "/api/leads", method: "PUT", json: signup() }));
    expect(res.status).toBe(405);
  });
});

describe("the admin's lead routes", () => {
  it("the JSON API and the stats answer 401 without a session, 403 for a member", async () => {
    const member = await signedIn("member@example.com");
    for (const handler of [leadsApi, leadStats]) {
      expect(asResponse(await callRoute(handler, { path: "/api/leads" })).status).toBe(401);
      expect(asResponse(await callRoute(handler, { path: "/api/leads", cookie: member })).status).toBe(403);
    }
  });

  it("lists confirmed leads with LISTED's fields; a bad limit or cursor is a 400", async () => {
    await callRoute(signupAction, { path: "/api/leads", json: signup() });
    await env.DB.prepare("UPDATE leads SET status = 'confirmed'").run();
    const admin = await signedIn(ADMIN);
    const res = asResponse(await callRoute(leadsApi, { path: "/api/leads", cookie: admin }));
    const [lead] = await res.json<Record<string, unknown>[]>();
    expect(lead).toMatchObject({ email: "ada@example.com" });
    for (const key of Object.keys(LISTED)) expect(lead).toHaveProperty(key);
    expect(asResponse(await callRoute(leadsApi, { path: "/api/leads?limit=0", cookie: admin })).status).toBe(400);
    expect(asResponse(await callRoute(leadsApi, { path: "/api/leads?cursor=x", cookie: admin })).status).toBe(400);
    const stats = asResponse(await callRoute(leadStats, { path: "/api/leads/stats", cookie: admin }));
    expect(stats.status).toBe(200);
    expect(asResponse(await callRoute(leadStats, { path: "/api/leads/stats?status=x", cookie: admin })).status).toBe(
      400,
    );
  });

  it("the CSV has LISTED's headings, is audited, and answers 409 with no leads", async () => {
    const admin = await signedIn(ADMIN);
    expect(asResponse(await callRoute(csv, { path: "/admin/leads.csv", cookie: admin })).status).toBe(409);
    await callRoute(signupAction, { path: "/api/leads", json: signup() });
    await env.DB.prepare("UPDATE leads SET status = 'confirmed'").run();
    const res = asResponse(await callRoute(csv, { path: "/admin/leads.csv", cookie: admin }));
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const [header, row] = (await res.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split(/\r?\n/);
    expect(`${header}\r\n`).toBe(csvRow(CSV_HEADER));
    expect(row).toContain("ada@example.com");
    const audit = await env.DB.prepare("SELECT action FROM audit_log").all<{ action: string }>();
    expect(audit.results.map((r) => r.action)).toContain("leads.export");
  });

  it("the workbench and a lead's page are the not-found page for a member; an admin unsubscribes a lead", async () => {
    await callRoute(signupAction, { path: "/api/leads", json: signup() });
    const id = String((await leadRow())?.id);
    const member = await signedIn("member@example.com");
    expect(asResponse(await callRoute(workbench, { path: "/admin/leads", cookie: member })).status).toBe(404);
    expect(
      asResponse(await callRoute(leadPage, { path: `/admin/leads/${id}`, params: { id }, cookie: member })).status,
    ).toBe(404);
    const admin = await signedIn(ADMIN);
    const page = await callRoute(leadPage, { path: `/admin/leads/${id}`, params: { id }, cookie: admin });
    expect(await asResponse(page).json()).toMatchObject({ lead: { email: "ada@example.com" } });
    expect(
      asResponse(await callRoute(leadPage, { path: "/admin/leads/999", params: { id: "999" }, cookie: admin })).status,
    ).toBe(404);
    const bad = asResponse(
      await callRoute(leadAction, { path: `/admin/leads/${id}`, params: { id }, form: { intent: "x" }, cookie: admin }),
    );
    expect(bad.status).toBe(400);
    const done = asResponse(
      await callRoute(leadAction, {
        path: `/admin/leads/${id}`,
        params: { id },
        form: { intent: "unsubscribe" },
        cookie: admin,
      }),
    );
    expect([done.status, done.headers.get("Location")]).toEqual([302, `/admin/leads/${id}`]);
    expect(await leadRow()).toMatchObject({ status: "unsubscribed" });
    const data = await callRoute(workbench, { path: "/admin/leads?status=all", cookie: admin });
    expect(asResponse(data).status).toBe(200);
  });

  it("a cross-site POST to a lead is refused with 403 before anything changes", async () => {
    await callRoute(signupAction, { path: "/api/leads", json: signup() });
    const id = String((await leadRow())?.id);
    const admin = await signedIn(ADMIN);
    const res = asResponse(
      await callRoute(leadAction, {
        path: `/admin/leads/${id}`,
        params: { id },
        form: { intent: "delete" },
        cookie: admin,
        headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
      }),
    );
    expect(res.status).toBe(403);
    expect(await leadRow()).not.toBeNull();
  });
});

describe("the newsletter's links", () => {
  it("a confirmation link shows its address on GET and confirms only on POST", async () => {
    await callRoute(signupAction, { path: "/api/leads", json: signup() });
    const id = Number((await leadRow())?.id);
    const token = randomToken();
    await env.DB.prepare("INSERT INTO newsletter_tokens (token_hash, lead_id, created_at) VALUES (?1, ?2, ?3)")
      .bind(await sha256Hex(token), id, Date.now())
      .run();
    const page = asResponse(await callRoute(confirmPage, { path: `/newsletter/confirm/${token}`, params: { token } }));
    expect(await page.json()).toEqual({ state: "valid", email: "ada@example.com", topic: "newsletter" });
    expect(await leadRow()).toMatchObject({ status: "pending" });
    const unknown = asResponse(await callRoute(confirmPage, { path: "/newsletter/confirm/x", params: { token: "x" } }));
    expect(unknown.status).toBe(404);
    const confirmed = asResponse(
      await callRoute(confirmAction, { path: `/newsletter/confirm/${token}`, params: { token }, form: {} }),
    );
    expect([confirmed.status, confirmed.headers.get("Location")]).toEqual([303, "/newsletter/confirmed"]);
    expect(await leadRow()).toMatchObject({ status: "confirmed" });
  });

  it("an alerts signup chooses ventures (form boxes); its mail names them and the reminders; the confirmed page offers the choice", async () => {
    const email = "vera@example.com";
    const res = asResponse(
      await callRoute(signupAction, {
        path: "/api/leads",
        form: [
          ["email", email],
          ["topic", "alerts"],
          ["source", "alerts-investors"],
          ["venture", "gaas"],
          ["venture", "fiscal-me"],
          ["venture", "no-such-venture"],
          ["eventReminders", "on"],
        ],
        headers: { Accept: "application/json" },
      }),
    );
    expect(res.status, await res.clone().text()).toBeLessThan(400);
    const lead = await env.DB.prepare(
      "SELECT id, alert_ventures AS ventures, event_reminders AS reminders FROM leads WHERE email = ?1 AND topic = 'alerts'",
    )
      .bind(email)
      .first<{ id: number; ventures: string; reminders: number }>();
    expect(lead).toMatchObject({ ventures: '["fiscal-me","gaas"]', reminders: 1 });
    const mail = await env.DB.prepare("SELECT text_body, html_body FROM mail_outbox WHERE recipient = ?1")
      .bind(email)
      .first<{ text_body: string; html_body: string }>();
    expect(mail!.text_body).toMatch(/You chose the alerts of FiscalMe, GaaS\./);
    expect(mail!.text_body).toContain("You also asked for a reminder the day before each event.");
    expect(mail!.html_body).toContain("You also asked for a reminder the day before each event.");
    const token = await preferencesToken(env, lead!.id);
    const page = asResponse(
      await callRoute(confirmedPage, { path: `/newsletter/confirmed?topic=alerts&preferences=${token}` }),
    );
    expect(page.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await page.json()).toMatchObject({
      preferences: {
        path: `/alerts/preferences/${token}`,
        choice: { ventures: ["fiscal-me", "gaas"] },
        reminders: true,
      },
    });
    // A forged key shows the page without any choice.
    const forged = asResponse(
      await callRoute(confirmedPage, { path: "/newsletter/confirmed?topic=alerts&preferences=1.x.y" }),
    );
    expect(await forged.json()).toEqual({ preferences: null });
  });

  it("investor alerts' links speak of investor alerts: the mail's subject and kind, the pages, their outcomes", async () => {
    const email = "ines@example.com";
    const res = asResponse(
      await callRoute(signupAction, {
        path: "/api/leads",
        json: signup({ email, topic: "alerts", source: "alerts-investors" }),
      }),
    );
    expect(res.status).toBe(201);
    const mail = await env.DB.prepare(
      "SELECT kind, subject, text_body, html_body FROM mail_outbox WHERE recipient = ?1",
    )
      .bind(email)
      .first<{ kind: string; subject: string; text_body: string; html_body: string }>();
    expect(mail).toMatchObject({ kind: ALERTS_CONFIRMATION_KIND, subject: ALERTS_TEXT.confirmSubject });
    expect(mail!.text_body).toContain("investor alerts");
    // Its words (the links' paths aside) never speak of the newsletter.
    expect(mail!.text_body.replace(/https?:\/\/\S+/g, "")).not.toMatch(/newsletter|news from/i);
    // Sent under the alerts' own sender name; every other mail under MAIL_FROM's.
    expect(senderOf(mail!.kind, { name: "AFX", email: "news@example.com" })).toEqual({
      name: ALERTS_TEXT.senderName,
      email: "news@example.com",
    });
    expect(senderOf(CONFIRMATION_KIND, { name: "AFX", email: "news@example.com" }).name).toBe("AFX");
    const id = Number((await leadRow(email))?.id);
    const token = randomToken();
    await env.DB.prepare("INSERT INTO newsletter_tokens (token_hash, lead_id, created_at) VALUES (?1, ?2, ?3)")
      .bind(await sha256Hex(token), id, Date.now())
      .run();
    const page = asResponse(await callRoute(confirmPage, { path: `/newsletter/confirm/${token}`, params: { token } }));
    expect(await page.json()).toEqual({ state: "valid", email, topic: "alerts" });
    const confirmed = asResponse(
      await callRoute(confirmAction, { path: `/newsletter/confirm/${token}`, params: { token }, form: {} }),
    );
    expect(confirmed.headers.get("Location")).toMatch(/^\/newsletter\/confirmed\?topic=alerts&preferences=[\w.-]+$/);
    const unsubscribe = await unsubscribeToken(env, id);
    const ask = asResponse(
      await callRoute(unsubscribePage, {
        path: `/newsletter/unsubscribe/${unsubscribe}`,
        params: { token: unsubscribe },
      }),
    );
    expect(await ask.json()).toMatchObject({ valid: true, listed: true, topic: "alerts" });
    const left = asResponse(
      await callRoute(unsubscribeAction, {
        path: `/newsletter/unsubscribe/${unsubscribe}`,
        params: { token: unsubscribe },
        form: {},
      }),
    );
    expect(left.headers.get("Location")).toBe("/newsletter/unsubscribed?topic=alerts");
    // The words of each page: every one names investor alerts, none the newsletter.
    const T = subscriptionText("alerts");
    for (const words of [
      T.confirmTitle,
      T.confirmBody(email),
      T.confirmedTitle,
      T.confirmedBody,
      T.unsubscribedTitle,
      T.unsubscribedBody,
    ]) {
      expect(words).toMatch(/investor alerts|alert/i);
      expect(words).not.toMatch(/newsletter/i);
    }
  });

  it("an unsubscribe link: 404 when forged; One-Click answers in plain text and unsubscribes", async () => {
    await callRoute(signupAction, { path: "/api/leads", json: signup() });
    await env.DB.prepare("UPDATE leads SET status = 'confirmed'").run();
    const token = await unsubscribeToken(env, Number((await leadRow())?.id));
    const forged = asResponse(
      await callRoute(unsubscribePage, { path: "/newsletter/unsubscribe/x", params: { token: "x" } }),
    );
    expect(forged.status).toBe(404);
    const page = asResponse(
      await callRoute(unsubscribePage, { path: `/newsletter/unsubscribe/${token}`, params: { token } }),
    );
    expect(await page.json()).toMatchObject({ valid: true, listed: true });
    const res = asResponse(
      await callRoute(unsubscribeAction, {
        path: `/newsletter/unsubscribe/${token}`,
        params: { token },
        form: { "List-Unsubscribe": "One-Click" },
      }),
    );
    expect([res.status, await res.text()]).toEqual([200, "Unsubscribed."]);
    expect(await leadRow()).toMatchObject({ status: "unsubscribed" });
  });
});
