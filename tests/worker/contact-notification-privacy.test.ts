// The contact notification carries the sender's words: export and erasure find it through the
// sender's messages, its link names the message's number, never an address; outbox records of
// given-up mail go after 30 days like sent ones.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, inject, it, vi } from "vitest";
import { runScheduledJobs } from "../../worker/scheduled";
import { notificationSubject } from "~/features/contact/notification-mail.server";
import { deliverDueMail } from "~/features/mail/outbox.server";
import { erasePerson } from "~/features/privacy/erase.server";
import { exportPerson } from "~/features/privacy/export.server";
import { action as helpAction } from "~/routes/help";
import { listMail } from "../fixtures/inbox";
import { get, ORIGIN, signIn } from "./auth-helpers";
import { getDb } from "~/utils/db.server";

/** A browser's form post names its Host and Origin (Remix compares them on page actions). */
const HOST = new URL(ORIGIN).host;

afterEach(() => vi.restoreAllMocks());
beforeEach(async () => {
  await env.DB.batch(
    ["rate_limits", "audit_log", "mail_outbox", "contact_messages", "leads", "suppressed_emails"].map((t) =>
      env.DB.prepare(`DELETE FROM ${t}`),
    ),
  );
});

/** Every table's rows that mention any of `needles` (the privacy test's footprint, over the whole database). */
async function traces(needles: string[]) {
  const { results: tables } = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name != 'd1_migrations'",
  ).all<{ name: string }>();
  expect(tables.length).toBeGreaterThan(8);
  const found: string[] = [];
  for (const { name } of tables) {
    const { results } = await env.DB.prepare(`SELECT * FROM "${name}"`).all();
    const text = JSON.stringify(results).toLowerCase();
    for (const needle of needles) if (text.includes(needle.toLowerCase())) found.push(`${name}: ${needle}`);
  }
  return found;
}

const helpRequest = (fields: Record<string, string>) =>
  new Request(`${ORIGIN}/help`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": "192.0.2.40" },
    body: new URLSearchParams(fields).toString(),
  });

async function sendWhileSmtpIsDown(fields: Record<string, string>) {
  const down = { ...env, SMTP_PORT: inject("closedSmtpPort") };
  const ctx = createExecutionContext();
  const result = await helpAction({
    request: helpRequest(fields),
    context: { cloudflare: { env: down, ctx } } as never,
    params: {},
  });
  await waitOnExecutionContext(ctx);
  expect(result).toMatchObject({ sent: true });
}

describe("erasure and export cover the contact notification", () => {
  const MINUTE = 60_000;

  it("a Help message queued while SMTP is down, then its sender erased: nothing is delivered, nothing of them remains", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const t = crypto.randomUUID().slice(0, 8);
    const fields = {
      name: `Erin ${t}`,
      email: `erin-${t}@example.com`,
      subject: `Private matter ${t}`,
      message: `Please forget me ${t}`,
    };
    await sendWhileSmtpIsDown(fields);
    const subject = notificationSubject(fields.subject);

    // While it exists, the notification is part of the sender's data.
    const doc = await exportPerson(getDb(env), fields.email);
    expect(doc.emails).toEqual([expect.objectContaining({ kind: "contact-notification", subject, status: "queued" })]);
    expect(await traces(Object.values(fields))).not.toEqual([]);

    await erasePerson(env, fields.email, { actor: "admin:test" });
    expect(await traces(Object.values(fields))).toEqual([]);
    expect(await traces([t])).toEqual([]);

    // SMTP is back: the next runs send nothing of theirs.
    await deliverDueMail(env, Date.now() + 2 * MINUTE);
    await deliverDueMail(env, Date.now() + 10 * MINUTE);
    await new Promise((r) => setTimeout(r, 200));
    expect(await listMail(inject("inboxURL"), { to: env.CONTACT_EMAIL, subject })).toEqual([]);
  });

  it("a member's own Delete Account takes the notifications of the messages they sent signed in", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const t = crypto.randomUUID().slice(0, 8);
    const email = `mem-${t}@example.com`;
    const { jar } = await signIn(email, { name: `Mem ${t}` });
    // An unverified member: their records are found by their account, not by the address.
    await env.DB.prepare("UPDATE users SET email_verified = 0 WHERE email = ?").bind(email).run();
    const res = await get("/help", jar, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "CF-Connecting-IP": "192.0.2.41",
        Origin: ORIGIN,
        Host: HOST,
      },
      body: new URLSearchParams({
        name: `Mem ${t}`,
        email: `other-${t}@example.com`,
        subject: `Sent signed in ${t}`,
        message: "Hello",
      }).toString(),
    });
    expect(res.status).toBe(200);
    const del = await get("/settings/delete", jar, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN, Host: HOST },
      body: new URLSearchParams({ email }).toString(),
    });
    expect(del.status).toBe(302);
    expect(await traces([`Sent signed in ${t}`])).toEqual([]);
  });

  it("given-up e-mails are deleted after 30 days, like sent ones", async () => {
    const DAY = 24 * 60 * MINUTE;
    const now = Date.now();
    const failed = (id: number, ago: number) =>
      env.DB.prepare(
        "INSERT INTO mail_outbox (id, kind, recipient, subject, text_body, html_body, status, attempts, next_attempt_at, created_at, last_error) VALUES (?, 'contact-notification', 'hello@example.com', 'Contact form: x', '', '', 'failed', 9, ?, ?, 'down')",
      ).bind(id, now - ago, now - ago);
    await env.DB.batch([failed(901, 31 * DAY + DAY), failed(902, 29 * DAY)]);
    await runScheduledJobs(env, now);
    const { results } = await env.DB.prepare("SELECT id FROM mail_outbox WHERE status = 'failed' ORDER BY id").all<{
      id: number;
    }>();
    expect(results.map((r) => r.id)).toEqual([902]);
  });
});

describe("no address in the notification's link", () => {
  it("the notification links to the message by its number, and the inbox opens on it", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const t = crypto.randomUUID().slice(0, 8);
    const fields = {
      name: "Link Test",
      email: `link-${t}@example.com`,
      subject: `Link ${t}`,
      message: "Where does the link go?",
    };
    await sendWhileSmtpIsDown(fields);
    const { id } = (await env.DB.prepare("SELECT id FROM contact_messages WHERE email = ?")
      .bind(fields.email)
      .first<{ id: number }>())!;
    const mail = (await env.DB.prepare(
      "SELECT text_body, html_body FROM mail_outbox WHERE kind = 'contact-notification'",
    ).first<{ text_body: string; html_body: string }>())!;
    const link = `https://afx.test/admin/messages?message=${id}`;
    expect(mail.text_body).toContain(link);
    expect(mail.html_body).toContain(`href="${link}"`);
    for (const url of `${mail.text_body} ${mail.html_body}`.match(/https?:\/\/[^\s"<>]+/g) ?? [])
      expect(url).not.toMatch(/@|%40/);

    // Another message, so the page shows only the linked one.
    await sendWhileSmtpIsDown({ ...fields, email: `second-${t}@example.com`, subject: `Second ${t}` });
    const { jar } = await signIn("admin@example.com");
    const html = await (await get(`/admin/messages?message=${id}`, jar)).text();
    expect(html).toContain(fields.subject);
    expect(html).not.toContain(`Second ${t}`);
  });
});
