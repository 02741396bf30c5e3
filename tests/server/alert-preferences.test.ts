// Investors' alert preferences (issue 52): the page a mail's token opens, the fan-out that
// follows each subscriber's choice of ventures and kinds, Settings, and the person export.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { action, loader } from "~/routes/alerts.preferences.$token";
import { action as saveSettings, loader as settings } from "~/routes/settings";
import { leads, type NewLead } from "~/db/schema";
import { fanOutAlerts, startAlert, type AlertItem } from "~/features/alerts/alerts.server";
import { alertMail } from "~/features/alerts/alert-mail.server";
import { preferencesPath, preferencesToken } from "~/features/alerts/preferences.server";
import { queueConfirmation, unsubscribeToken } from "~/features/leads/subscription.server";
import { exportPerson } from "~/features/privacy/export.server";
import { batch, getDb } from "~/utils/db.server";
import { startSession } from "~/features/auth/session.server";
import { upsertUser } from "~/features/auth/users.server";
import { asResponse, callRoute, signedIn } from "./route-args";

async function lead(email: string, over: Partial<NewLead> = {}) {
  const [row] = await getDb(env)
    .insert(leads)
    .values({
      email,
      firstName: "Ines",
      source: "alerts-investors",
      topic: "alerts",
      status: "confirmed",
      consentVersion: "2026-11-alerts-1",
      confirmedAt: new Date(),
      ...over,
    })
    .returning();
  return row!;
}

const choiceOf = (id: number) =>
  env.DB.prepare("SELECT alert_ventures AS ventures, alert_kinds AS kinds FROM leads WHERE id = ?1").bind(id).first();

async function page(token: string) {
  const path = preferencesPath(token);
  return asResponse(await callRoute(loader, { path, params: { token } }));
}

/** Posts the form with these boxes ticked ("venture=gaas&kind=news"), repeated fields as a browser sends them. */
async function choose(token: string, ticked: string) {
  const form = [...new URLSearchParams(ticked)];
  return asResponse(await callRoute(action, { path: preferencesPath(token), params: { token }, method: "POST", form }));
}

beforeEach(async () => {
  await env.DB.batch([
    env.DB.prepare("DELETE FROM alert_recipients"),
    env.DB.prepare("DELETE FROM alert_sends"),
    env.DB.prepare("DELETE FROM leads"),
    env.DB.prepare("DELETE FROM mail_outbox"),
  ]);
});

describe("the preferences page", () => {
  it("opens with the link's token alone, shows every venture and 'all', and saves the ticked boxes", async () => {
    const ines = await lead("ines@example.com");
    const token = await preferencesToken(env, ines.id);
    const res = await page(token);
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    const data = await res.json<{ address: string; choice: unknown; ventures: { id: string }[] }>();
    expect(data.address).not.toContain("ines@");
    expect(data.choice).toEqual({ ventures: null, kinds: null });
    expect(data.ventures.map((v) => v.id)).toContain("gaas");
    expect(data.ventures.map((v) => v.id)).toContain("fiscal-me");

    const saved = await choose(token, "venture=gaas&venture=nonsense&kind=news");
    expect(saved.status).toBe(200);
    expect(await choiceOf(ines.id)).toEqual({ ventures: '["gaas"]', kinds: '["news"]' });
    expect(await (await page(token)).json()).toMatchObject({ choice: { ventures: ["gaas"], kinds: ["news"] } });

    // Nothing ticked, or everything: all again.
    await choose(token, "");
    expect(await choiceOf(ines.id)).toEqual({ ventures: null, kinds: null });
    await choose(token, "kind=news&kind=documents&kind=events");
    expect(await choiceOf(ines.id)).toEqual({ ventures: null, kinds: null });
  });

  it("refuses a forged or foreign token, and a newsletter lead's id, changing nothing", async () => {
    const ines = await lead("ines@example.com");
    const reader = await lead("reader@example.com", { topic: "newsletter", consentVersion: "2026-11-consent-1" });
    const unsubscribe = await unsubscribeToken(env, ines.id);
    for (const token of ["nonsense", unsubscribe, await preferencesToken(env, reader.id)]) {
      expect((await page(token)).status).toBe(404);
      expect((await choose(token, "venture=gaas")).status).toBe(404);
    }
    expect(await choiceOf(ines.id)).toEqual({ ventures: null, kinds: null });
    expect(await choiceOf(reader.id)).toEqual({ ventures: null, kinds: null });
  });
});

describe("the fan-out follows the choice", () => {
  const item = (id: string, venture: string | null, kind: AlertItem["kind"] = "news"): AlertItem => ({
    kind,
    id,
    title: `Item ${id}`,
    summary: "Summary.",
    url: `https://afx.test/news/${id}`,
    venture,
  });

  it("a venture's items reach who chose it or all; the group's only who kept all; kinds likewise", async () => {
    const gaasOnly = await lead("gaas@example.com", { alertVentures: '["gaas"]' });
    const everything = await lead("all@example.com");
    const documentsOnly = await lead("docs@example.com", { alertKinds: '["documents"]' });
    const pending = await lead("pending@example.com", { status: "pending", confirmedAt: null });
    const now = Date.now();
    await batch(getDb(env), [
      startAlert(item("gaas-news", "gaas"), now),
      startAlert(item("fiscal-news", "fiscal-me"), now),
      startAlert(item("group-news", null), now),
      startAlert(item("gaas-doc", "gaas", "document"), now),
    ]);
    await fanOutAlerts(env);
    const rows = await env.DB.prepare("SELECT item_id, lead_id FROM alert_recipients ORDER BY item_id, lead_id").all<{
      item_id: string;
      lead_id: number;
    }>();
    const to = (itemId: string) => rows.results.filter((r) => r.item_id === itemId).map((r) => r.lead_id);
    expect(to("gaas-news")).toEqual([gaasOnly.id, everything.id]);
    expect(to("fiscal-news")).toEqual([everything.id]);
    expect(to("group-news")).toEqual([everything.id]);
    expect(to("gaas-doc")).toEqual([gaasOnly.id, everything.id, documentsOnly.id]);
    expect(rows.results.some((r) => r.lead_id === pending.id)).toBe(false);
    // Every alert mail links the subscriber's own preferences page.
    const mail = await env.DB.prepare(
      "SELECT text_body FROM mail_outbox WHERE recipient = 'gaas@example.com' LIMIT 1",
    ).first<{
      text_body: string;
    }>();
    expect(mail!.text_body).toContain(`/alerts/preferences/${await preferencesToken(env, gaasOnly.id)}`);
  });
});

describe("the mails link the page", () => {
  it("the alerts' confirmation mail does; the newsletter's does not", async () => {
    const alerts = await lead("new-investor@example.com", { status: "pending", confirmedAt: null });
    const reader = await lead("new-reader@example.com", {
      status: "pending",
      confirmedAt: null,
      topic: "newsletter",
      consentVersion: "2026-11-consent-1",
    });
    await queueConfirmation(env, { id: alerts.id, email: alerts.email, topic: "alerts" });
    await queueConfirmation(env, { id: reader.id, email: reader.email, topic: "newsletter" });
    const body = (to: string) =>
      env.DB.prepare("SELECT text_body, html_body FROM mail_outbox WHERE recipient = ?1")
        .bind(to)
        .first<{ text_body: string; html_body: string }>();
    const link = `/alerts/preferences/${await preferencesToken(env, alerts.id)}`;
    expect((await body(alerts.email))!.text_body).toContain(link);
    expect((await body(alerts.email))!.html_body).toContain(link);
    expect((await body(reader.email))!.text_body).not.toContain("/alerts/preferences/");
  });

  it("an alert mail names the page in both bodies", () => {
    const mail = alertMail({
      kind: "alert-news-1",
      to: "a@example.com",
      title: "T",
      summary: "S",
      url: "https://afx.test/news/t",
      unsubscribeUrl: "https://afx.test/newsletter/unsubscribe/x",
      preferencesUrl: "https://afx.test/alerts/preferences/y",
    });
    expect(mail.text).toContain("https://afx.test/alerts/preferences/y");
    expect(mail.html).toContain('href="https://afx.test/alerts/preferences/y"');
  });
});

describe("Settings and the person's data", () => {
  it("a member with alerts on sets the same choice in Settings; it is in their export", async () => {
    const email = "investor-member@example.com";
    const cookie = await signedIn(email, "Ines Investor");
    const investor = await lead(email, { consentMethod: "verified-member" });
    const view = await asResponse(await callRoute(settings, { path: "/settings", cookie })).json<{
      alerts: boolean;
      alertChoice: unknown;
    }>();
    expect(view).toMatchObject({ alerts: true, alertChoice: { ventures: null, kinds: null } });
    const form: [string, string][] = [
      ["alertsShown", "1"],
      ["alerts", "on"],
      ["alertChoiceShown", "1"],
      ["venture", "fiscal-me"],
      ["kind", "documents"],
    ];
    const res = await callRoute(saveSettings, { path: "/settings", cookie, form });
    expect(asResponse(res).status).toBe(200);
    expect(await choiceOf(investor.id)).toEqual({ ventures: '["fiscal-me"]', kinds: '["documents"]' });
    const exported = await exportPerson(getDb(env), email);
    expect(exported.newsletter.find((l) => l.topic === "alerts")).toMatchObject({
      alert_ventures: '["fiscal-me"]',
      alert_kinds: '["documents"]',
    });
  });
});

describe("Settings of an unverified address", () => {
  it("reads nothing keyed by the address: no alert choice, no subscription, no reminders", async () => {
    const email = "unverified-claimant@example.com";
    // Someone else's confirmed alerts with a choice of ventures, kinds and reminders at that address.
    await lead(email, { alertVentures: '["fiscal-me"]', alertKinds: '["documents"]', eventReminders: true });
    const user = await upsertUser(env, {
      subject: `test|unverified|${email}`,
      email,
      emailVerified: false,
      firstName: "Claire",
      lastName: "",
      profileImageUrl: null,
    });
    const cookie = (await startSession(new Request("https://afx.test"), env, user.id)).split(";")[0]!;
    const view = await asResponse(await callRoute(settings, { path: "/settings", cookie })).json<{
      alerts: boolean;
      newsletter: boolean;
      eventReminders: boolean;
      alertChoice: unknown;
      account: { emailVerified: boolean };
    }>();
    expect(view.account.emailVerified).toBe(false);
    expect(view).toMatchObject({
      alerts: false,
      newsletter: false,
      eventReminders: false,
      alertChoice: { ventures: null, kinds: null },
    });
    expect(JSON.stringify(view)).not.toContain("documents");
  });
});

describe("the preferences page's event reminders (the calendar's own opt-in)", () => {
  it("shows the stored consent and sets it with the choice, off when the box is left unticked", async () => {
    const ivo = await lead("ivo@example.com");
    const token = await preferencesToken(env, ivo.id);
    const stored = () =>
      env.DB.prepare("SELECT event_reminders AS on_ FROM leads WHERE id = ?1").bind(ivo.id).first<{ on_: number }>();
    expect(await (await page(token)).json()).toMatchObject({ reminders: false });
    expect((await choose(token, "venture=gaas&eventReminders=on")).status).toBe(200);
    expect((await stored())?.on_).toBe(1);
    expect(await (await page(token)).json()).toMatchObject({ reminders: true });
    expect((await choose(token, "venture=gaas")).status).toBe(200);
    expect((await stored())?.on_).toBe(0);
  });
});
