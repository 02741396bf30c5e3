// The contact inbox end to end in workerd: a message sent from /help is stored, its notification
// reaches the contact address through the outbox and the real local SMTP server (maildev), and the
// admin finds it in /admin/messages, searches, filters and marks it answered. Members, anonymous
// visitors and cross-site forms change nothing.
import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { inboxSql } from "~/features/contact/messages.server";
import { notificationSubject } from "~/features/contact/notification-mail.server";
import { replyHref } from "~/features/contact/inbox";
import { deliverDueMail, SAFETY_NET_AFTER_MS } from "~/features/mail/outbox.server";
import { action as helpAction } from "~/routes/help";
import { listMail, waitForMail } from "../fixtures/inbox";
import { get, ORIGIN, signIn, type Jar } from "./auth-helpers";
import { nextAddress } from "./leads-helpers";
import { expectDefined } from "../fixtures/expect-defined";

const inbox = inject("inboxURL");
const CONTACT = env.CONTACT_EMAIL; // hello@example.com in wrangler.toml
const MINUTE = 60_000;

let admin: Jar;
let member: Jar;
beforeAll(async () => {
  admin = (await signIn("admin@example.com", { name: "Ada Admin" })).jar;
  member = (await signIn("member@example.com", { name: "Max Member" })).jar;
});

const tag = () => crypto.randomUUID().slice(0, 8);

function helpRequest(fields: Record<string, string>, ip = nextAddress()) {
  return new Request(`${ORIGIN}/help`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": ip },
    body: new URLSearchParams(fields).toString(),
  });
}

/** Sends the Help form as the browser does (a plain POST, no JavaScript needed). */
async function sendMessage(over: Partial<Record<"name" | "email" | "subject" | "message", string>> = {}) {
  const t = tag();
  const fields = {
    name: "Grace Hopper",
    email: `grace-${t}@example.com`,
    subject: `Question ${t}`,
    message: "Line one\nLine two <b>not bold</b>",
    ...over,
  };
  const res = await SELF.fetch(helpRequest(fields));
  expect(res.status).toBe(200);
  expect(await res.text()).toContain("Thank you");
  return fields;
}

const row = (email: string) =>
  env.DB.prepare("SELECT id, status, answered_at, answered_by, subject FROM contact_messages WHERE email = ?")
    .bind(email)
    .first<{
      id: number;
      status: string;
      answered_at: number | null;
      answered_by: string | null;
      subject: string;
    }>();

function postStatus(
  jar: Jar | undefined,
  fields: Record<string, string>,
  { path = "/admin/messages", origin = ORIGIN } = {},
) {
  return get(path, jar, {
    method: "POST",
    // A browser's POST: its Host, and the Origin of the page the form was on.
    headers: { "Content-Type": "application/x-www-form-urlencoded", Host: new URL(ORIGIN).host, Origin: origin },
    body: new URLSearchParams(fields).toString(),
  });
}

async function inboxHtml(query = "", jar = admin) {
  const res = await get(`/admin/messages${query}`, jar);
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toContain("no-store");
  return res.text();
}

describe("a message from /help", () => {
  it("is stored open, appears in /admin/messages and notifies the contact address (Reply-To the sender)", async () => {
    const sent = await sendMessage();
    expect(await row(sent.email)).toMatchObject({ status: "open", answered_at: null });

    const html = await inboxHtml();
    expect(html).toContain(sent.subject);
    expect(html).toContain(sent.email);
    // React escapes the message: the visitor's markup is text.
    expect(html).toContain("Line two &lt;b&gt;not bold&lt;/b&gt;");
    expect(html).toContain(`href="${replyHref(sent.email, sent.subject).replaceAll("&", "&amp;")}"`);

    const mail = await waitForMail(inbox, { to: CONTACT, subject: notificationSubject(sent.subject) });
    expect(mail.headers["reply-to"]).toBe(sent.email);
    expect(mail.text).toContain(`From: Grace Hopper <${sent.email}>`);
    expect(mail.text).toContain("Line two <b>not bold</b>");
    expect(mail.html).toContain("Line two &lt;b&gt;not bold&lt;/b&gt;");
    // The link names the message by its number, not the sender by their address.
    expect(mail.text).toContain(`https://afx.test/admin/messages?message=${(await row(sent.email))!.id}`);
    const outbox = await env.DB.prepare("SELECT kind, status FROM mail_outbox WHERE subject = ?")
      .bind(notificationSubject(sent.subject))
      .all();
    expect(outbox.results).toEqual([{ kind: "contact-notification", status: "sent" }]);
  });

  it("a subject with a line break cannot add a header to the notification", async () => {
    const t = tag();
    const sent = await sendMessage({ subject: `Hi ${t}\r\nBcc: victim@example.com` });
    const subject = notificationSubject(sent.subject);
    expect(subject).toBe(`Contact form: Hi ${t} Bcc: victim@example.com`);
    const mail = await waitForMail(inbox, { to: CONTACT, subject });
    expect(mail.headers.bcc).toBeUndefined();
    expect(await listMail(inbox, { to: "victim@example.com" })).toHaveLength(0);
  });

  it("with the SMTP server down, the visitor still gets success, the message is stored, the notification waits and arrives later", async () => {
    const t = tag();
    const fields = {
      name: "Down Test",
      email: `down-${t}@example.com`,
      subject: `Down ${t}`,
      message: "Sent while SMTP was down.",
    };
    // No mail queue (as under `npm run dev`): the notification is tried right after the response, with this env.
    const down = { ...env, SMTP_PORT: inject("closedSmtpPort"), MAIL_QUEUE: undefined } as unknown as Env;
    const ctx = createExecutionContext();
    const result = await helpAction({
      request: helpRequest(fields),
      context: { cloudflare: { env: down, ctx } } as never,
      params: {},
    });
    await waitOnExecutionContext(ctx);
    expect(result).toMatchObject({ sent: true });
    expect(await row(fields.email)).toMatchObject({ status: "open" });
    const subject = notificationSubject(fields.subject);
    const queued = await env.DB.prepare(
      "SELECT status, attempts, last_error, reply_to FROM mail_outbox WHERE subject = ?",
    )
      .bind(subject)
      .first();
    expect(queued).toMatchObject({
      status: "queued",
      attempts: 1,
      last_error: expect.any(String),
      reply_to: fields.email,
    });
    expect(await listMail(inbox, { to: CONTACT, subject })).toHaveLength(0);

    // The server is back: the Cron Trigger's safety net delivers it after the retry delay and its grace.
    expect(
      (await deliverDueMail(env, Date.now() + 3 * MINUTE, { olderThanMs: SAFETY_NET_AFTER_MS })).sent,
    ).toBeGreaterThanOrEqual(1);
    const mail = await waitForMail(inbox, { to: CONTACT, subject });
    expect(mail.headers["reply-to"]).toBe(fields.email);
  });
});

describe("the admin's inbox", () => {
  it("toggles answered (who and when) and open again, back to the same list with a toast", async () => {
    const sent = await sendMessage();
    const { id } = (await row(sent.email))!;
    const before = Date.now();
    const res = await postStatus(
      admin,
      { id: String(id), status: "answered" },
      { path: `/admin/messages?status=open&q=${encodeURIComponent(sent.email)}` },
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(
      `/admin/messages?status=open&q=${encodeURIComponent(sent.email)}#message-${id}`,
    );
    const answered = (await row(sent.email))!;
    expect(answered).toMatchObject({ status: "answered", answered_by: "admin@example.com" });
    expect(answered.answered_at).toBeGreaterThanOrEqual(before);

    const html = await inboxHtml(`?q=${encodeURIComponent(sent.email)}`);
    expect(html.replaceAll("<!-- -->", "")).toContain("Answered by admin@example.com");
    expect(html).toContain("Mark open");

    expect((await postStatus(admin, { id: String(id), status: "open" })).status).toBe(303);
    expect(await row(sent.email)).toMatchObject({ status: "open", answered_at: null, answered_by: null });
  });

  it("searches by e-mail or name prefix (any case), by subject words, and filters by status, all in the URL", async () => {
    const t = tag();
    const a = await sendMessage({ name: `Zelda ${t}`, email: `zed-${t}@example.com`, subject: `Invoice ${t} overdue` });
    const b = await sendMessage({
      name: `Yuri ${t}`,
      email: `yuri-${t}@example.com`,
      subject: `Partnership ${t} idea`,
    });
    await postStatus(admin, { id: String((await row(b.email))!.id), status: "answered" });

    const byEmail = await inboxHtml(`?q=${encodeURIComponent(`ZED-${t}`)}`);
    expect(byEmail).toContain(a.subject);
    expect(byEmail).not.toContain(b.subject);

    const byName = await inboxHtml(`?q=${encodeURIComponent(`yuri ${t}`)}`);
    expect(byName).toContain(b.subject);
    expect(byName).not.toContain(a.subject);

    const bySubject = await inboxHtml(`?in=subject&q=${encodeURIComponent(`overdue ${t}`)}`);
    expect(bySubject).toContain(a.subject);
    expect(bySubject).not.toContain(b.subject);
    // Prefix search does not match the middle of a subject.
    expect(await inboxHtml(`?q=${encodeURIComponent(`overdue ${t}`)}`)).toContain("No messages match.");

    const open = await inboxHtml(`?status=open&in=subject&q=${t}`);
    expect(open).toContain(a.subject);
    expect(open).not.toContain(b.subject);
    const answered = await inboxHtml(`?status=answered&in=subject&q=${t}`);
    expect(answered).toContain(b.subject);
    expect(answered).not.toContain(a.subject);
    // The form shows the URL's state back.
    expect(answered).toMatch(/<option value="answered" selected="">/);
  });

  it("pages newest first with a keyset cursor", async () => {
    const t = tag();
    const now = Date.now();
    await env.DB.batch(
      Array.from({ length: 25 }, (_, i) =>
        env.DB.prepare(
          "INSERT INTO contact_messages (name, email, subject, message, created_at) VALUES (?, ?, ?, ?, ?)",
        ).bind("Pager", `pager-${t}@example.com`, `Page ${t} #${String(i).padStart(2, "0")}`, "x", now - i * 1000),
      ),
    );
    const first = await inboxHtml(`?q=pager-${t}`);
    const titles = (html: string) =>
      [...html.matchAll(new RegExp(`<h2[^>]*>Page ${t} #(\\d\\d)`, "g"))].map((m) => m[1]);
    expect(titles(first)).toEqual(Array.from({ length: 20 }, (_, i) => String(i).padStart(2, "0")));
    const next = expectDefined(first.match(/href="(\/admin\/messages\?[^"]*cursor=[^"]+)"/)?.[1]).replaceAll(
      "&amp;",
      "&",
    );
    expect(next).toBeDefined();
    expect(titles(await inboxHtml(next!.replace("/admin/messages", "")))).toEqual(["20", "21", "22", "23", "24"]);
  });

  it("keeps the sender search an index range (query plan)", async () => {
    for (const status of ["all", "open"] as const) {
      const { sql, params } = inboxSql(
        { q: "ada", in: "sender", status, cursor: { createdAt: Date.now(), id: 10 } },
        21,
      );
      const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...params)
        .all<{ detail: string }>();
      const plan = results.map((r) => r.detail).join("\n");
      expect(plan).toContain("contact_messages_email_nocase_idx (email>? AND email<?)");
      expect(plan).toContain("contact_messages_name_nocase_idx (name>? AND name<?)");
      expect(plan).not.toMatch(/SCAN contact_messages\b(?! USING)/);
    }
    const { sql, params } = inboxSql({ q: "", in: "sender", status: "open", cursor: null }, 21);
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .bind(...params)
      .all<{ detail: string }>();
    expect(results.map((r) => r.detail).join("\n")).toContain("contact_messages_status_created_at_idx");
  });

  it("answers bad input with 400 and an unknown message with 404", async () => {
    const sent = await sendMessage();
    const { id } = (await row(sent.email))!;
    expect((await postStatus(admin, { id: String(id), status: "closed" })).status).toBe(400);
    expect((await postStatus(admin, { id: "abc", status: "answered" })).status).toBe(400);
    expect((await postStatus(admin, { status: "answered" })).status).toBe(400);
    expect((await postStatus(admin, { id: "999999999", status: "answered" })).status).toBe(404);
    expect(await row(sent.email)).toMatchObject({ status: "open" });
  });
});

describe("refusals", () => {
  it("members and anonymous visitors get the not-found page and change nothing", async () => {
    const sent = await sendMessage();
    const { id } = (await row(sent.email))!;
    for (const jar of [member, undefined]) {
      const page = await get("/admin/messages", jar);
      expect(page.status).toBe(404);
      expect(await page.text()).not.toContain(sent.subject);
      expect((await postStatus(jar, { id: String(id), status: "answered" })).status).toBe(404);
    }
    expect(await row(sent.email)).toMatchObject({ status: "open", answered_by: null });
  });

  it("a cross-site POST is refused with 403, even with the admin's cookies, with or without JavaScript", async () => {
    const sent = await sendMessage();
    const { id } = (await row(sent.email))!;
    // The form as a document POST (no JavaScript), and as Remix's fetch (`?_data=`, JavaScript on).
    for (const path of ["/admin/messages", "/admin/messages?_data=routes%2Fadmin.messages"]) {
      const res = await postStatus(
        admin,
        { id: String(id), status: "answered" },
        { path, origin: "https://evil.example" },
      );
      expect(res.status).toBe(403);
      expect(await res.text()).toContain("Cross-site request refused.");
    }
    // Without Origin, a browser's Sec-Fetch-Site says where the form was.
    const res = await get("/admin/messages?_data=routes%2Fadmin.messages", admin, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "cross-site" },
      body: new URLSearchParams({ id: String(id), status: "answered" }).toString(),
    });
    expect(res.status).toBe(403);
    expect(await row(sent.email)).toMatchObject({ status: "open", answered_by: null });
  });

  it("the Help form keeps its per-client rate limit", async () => {
    const ip = nextAddress();
    const statuses: number[] = [];
    // The limiter's windows are fixed (10 posts a 10-minute window): on a loaded machine 12 posts
    // may straddle a window's end, so up to twice the limit and one more, stopping at the first 429.
    for (let i = 0; i < 21 && !statuses.includes(429); i++) {
      const res = await SELF.fetch(
        helpRequest(
          { name: "Flood", email: `flood-${tag()}@example.com`, subject: `Flood ${tag()}`, message: "x" },
          ip,
        ),
      );
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    expect(statuses).toContain(429);
  });
});
