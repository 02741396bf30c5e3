// Investor alerts' server side without a build: the fan-out goes on past a recipient or an alert
// whose mail cannot be built, a provider's odd address gets no mail rights, and an alerts signup
// of a confirmed subscriber is answered as a new address's.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { action as signupAction } from "~/routes/api.leads";
import { alertMailKind, fanOutAlerts, startAlert, type AlertItem } from "~/features/alerts/alerts.server";
import { toProfile } from "~/features/auth/oidc.server";
import { batch, getDb } from "~/utils/db.server";
import { asResponse, callRoute } from "./route-args";

beforeEach(async () => {
  await env.DB.batch([
    env.DB.prepare("DELETE FROM leads"),
    env.DB.prepare("DELETE FROM alert_sends"),
    env.DB.prepare("DELETE FROM mail_outbox"),
    env.DB.prepare("DELETE FROM rate_limits"),
  ]);
});

/** Confirmed alerts subscribers, as stored (no check of the address: a provider's was never checked). */
async function alertSubscribers(...emails: string[]) {
  await env.DB.batch(
    emails.map((email) =>
      env.DB.prepare(
        "INSERT INTO leads (email, first_name, source, subscribed_at, status, topic) VALUES (?, 'Ivy', 'settings', ?, 'confirmed', 'alerts')",
      ).bind(email, Date.now()),
    ),
  );
}

const item = (id: string, title = `Item ${id}`): AlertItem => ({
  kind: "news",
  id,
  title,
  summary: "What happened.",
  url: `https://afx.test/news/${id}`,
  venture: null,
});

const recipients = async (id: string) =>
  (
    await env.DB.prepare("SELECT recipient FROM mail_outbox WHERE kind = ? ORDER BY recipient")
      .bind(alertMailKind("news", id))
      .all<{ recipient: string }>()
  ).results.map((r) => r.recipient);

describe("the alert fan-out", () => {
  it("an odd address skips that recipient alone; a bad item stops no other alert", async () => {
    await alertSubscribers("ann@afx.test", "o,dd@example.org", "bob@afx.test");
    const now = Date.now();
    // The first alert is a broken row (a kind no mail kind can be made of): no mail of it can be
    // built, for anyone; the second is whole.
    await batch(getDb(env), [
      startAlert({ ...item("1"), kind: "News!" as "news" }, now),
      startAlert(item("2"), now + 1),
    ]);
    expect(await fanOutAlerts(env)).toBe(2);
    const broken = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM mail_outbox WHERE kind NOT LIKE 'alert-news-2'",
    ).first<{
      n: number;
    }>();
    expect(broken?.n).toBe(0);
    expect(await recipients("2")).toEqual(["ann@afx.test", "bob@afx.test"]);
    // Both alerts are done: nothing left for the Cron Trigger to try again every minute.
    const open = await env.DB.prepare("SELECT COUNT(*) AS n FROM alert_sends WHERE fanned_out_at IS NULL").first<{
      n: number;
    }>();
    expect(open?.n).toBe(0);
    // "Sent N of M" counts the recipients: the skipped address is not one.
    const counted = await env.DB.prepare("SELECT COUNT(*) AS n FROM alert_recipients WHERE item_id = '2'").first<{
      n: number;
    }>();
    expect(counted?.n).toBe(2);
  });

  it("a provider's address the forms refuse is kept but unverified: no mail rights, never an admin", () => {
    const claims = { sub: "s1", email: "O,dd@Example.org", email_verified: true };
    expect(toProfile(claims, "https://id.example")).toMatchObject({ email: "o,dd@example.org", emailVerified: false });
    expect(toProfile({ ...claims, email: "Ada@Example.org" }, "https://id.example")).toMatchObject({
      email: "ada@example.org",
      emailVerified: true,
    });
    expect(toProfile({ ...claims, email: "no-at-sign" }, "https://id.example").email).toBeNull();
  });
});

describe("an alerts signup", () => {
  const post = (email: string) =>
    callRoute(signupAction, { path: "/api/leads", json: { email, topic: "alerts", source: "alerts-investors" } });

  it("of a confirmed alerts subscriber answers exactly as a new address, and mails nobody", async () => {
    await alertSubscribers("investor@afx.test");
    const known = asResponse(await post("investor@afx.test"));
    const fresh = asResponse(await post("newcomer@afx.test"));
    expect(known.status).toBe(201);
    const [knownBody, freshBody] = [
      await known.json<Record<string, unknown>>(),
      await fresh.json<Record<string, unknown>>(),
    ];
    const shape = (body: Record<string, unknown>) => ({ ...body, email: "", subscribedAt: typeof body.subscribedAt });
    expect(shape(knownBody)).toEqual(shape(freshBody));
    expect(knownBody.email).toBe("investor@afx.test");
    expect(fresh.status).toBe(201);
    const mailed = await env.DB.prepare("SELECT recipient FROM mail_outbox").all<{ recipient: string }>();
    expect(mailed.results.map((r) => r.recipient)).toEqual(["newcomer@afx.test"]);
    const kept = await env.DB.prepare("SELECT status FROM leads WHERE email = 'investor@afx.test'").first<{
      status: string;
    }>();
    expect(kept?.status).toBe("confirmed");
  });

  it("of a confirmed newsletter reader's address still answers 409 for the newsletter", async () => {
    await env.DB.prepare(
      "INSERT INTO leads (email, first_name, source, subscribed_at, status) VALUES ('reader@afx.test', 'Rea', 'footer', ?, 'confirmed')",
    )
      .bind(Date.now())
      .run();
    const res = asResponse(
      await callRoute(signupAction, {
        path: "/api/leads",
        json: { email: "reader@afx.test", firstName: "Rea", source: "footer" },
      }),
    );
    expect(res.status).toBe(409);
  });
});
