// The newsletter's double opt-in end to end in workerd: the real worker, the real local D1 and the
// real local SMTP server (maildev). A signup is pending until its link's button is pressed; the
// e-mail carries the one-click unsubscribe; tokens are hashed, single use and expire; the consent
// is on record; a failing SMTP server loses nothing.
import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  env,
  getQueueResult,
  SELF,
} from "cloudflare:test";
import { beforeEach, describe, expect, inject, it } from "vitest";
import { CONSENT_COPY, CONSENT_VERSION } from "~/features/leads/newsletter";
import { CONFIRMATION_GREETING, CONFIRMATION_SUBJECT } from "~/features/leads/confirmation-mail.server";
import { foldEmail } from "~/features/privacy/address-key.server";
import { isSuppressed, suppressStatements } from "~/features/privacy/suppression.server";
import { hmacSign } from "~/utils/crypto.server";
import { handleSignup } from "~/features/leads/signup.server";
import { CSV_HEADER, csvRow } from "~/features/leads/csv.server";
import worker from "../../worker/server";
import { runScheduledJobs } from "../../worker/scheduled";
import { listMail, waitForMail, type InboxMail } from "../fixtures/inbox";
import { get, signIn } from "./auth-helpers";
import { insertLeads, nextAddress, ORIGIN, postForm, postJson, signup } from "./leads-helpers";
import { batch as runBatch, getDb } from "~/utils/db.server";

const inbox = inject("inboxURL");
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const unique = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}@example.com`;

async function lead(email: string) {
  return env.DB.prepare("SELECT * FROM leads WHERE email = ?").bind(email).first<Record<string, unknown>>();
}

const linkIn = (mail: InboxMail, kind: "confirm" | "unsubscribe") => {
  const match = mail.text.match(new RegExp(`https://afx\\.test/newsletter/${kind}/[A-Za-z0-9_.-]+`));
  if (!match) throw new Error(`no ${kind} link in: ${mail.text}`);
  return new URL(match[0]);
};

/** Signs up through the API and returns the confirmation e-mail that reached the inbox. */
async function signUpAndReadMail(email: string, over: Record<string, unknown> = {}) {
  const res = await postJson(signup({ email, ...over }));
  expect(res.status).toBe(201);
  return waitForMail(inbox, { to: email, subject: CONFIRMATION_SUBJECT });
}

const post = (url: URL | string, body: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  SELF.fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(body).toString(),
    redirect: "manual",
  });

async function outboxTo(email: string) {
  const { results } = await env.DB.prepare("SELECT status FROM mail_outbox WHERE recipient = ?").bind(email).all();
  return results;
}

beforeEach(async () => {
  await env.DB.batch(
    ["leads", "mail_outbox", "confirmation_counts", "suppressed_emails"].map((t) => env.DB.prepare(`DELETE FROM ${t}`)),
  );
});

describe("double opt-in", () => {
  it("a signup is pending and gets exactly one e-mail with both parts, the link and the one-click unsubscribe headers", async () => {
    const email = unique("first");
    const mail = await signUpAndReadMail(email);
    expect(await lead(email)).toMatchObject({ status: "pending", confirmed_at: null });
    expect(mail.text).toContain("AFX Holding Group");
    expect(mail.html).toContain(`href="${linkIn(mail, "confirm").href}"`);
    expect(mail.headers["list-unsubscribe"]).toBe(`<${linkIn(mail, "unsubscribe").href}>`);
    expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    // One e-mail, and D1 keeps only the token's SHA-256: the link's secret is nowhere in it.
    expect(await listMail(inbox, { to: email })).toHaveLength(1);
    const token = linkIn(mail, "confirm").pathname.split("/").pop()!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const { results } = await env.DB.prepare("SELECT token_hash FROM newsletter_tokens").all<{ token_hash: string }>();
    expect(results.map((r) => r.token_hash)).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/)]);
    const dump = JSON.stringify((await env.DB.prepare("SELECT * FROM mail_outbox").all()).results);
    expect(dump).not.toContain(token);
  });

  it("GET of the link shows the button and confirms nothing; its POST confirms, once", async () => {
    const email = unique("confirm");
    const link = linkIn(await signUpAndReadMail(email), "confirm");

    const page = await SELF.fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get("Cache-Control")).toBe("private, no-store");
    const html = await page.text();
    expect(html).toContain("Confirm subscription</button>");
    expect(html).toContain(email);
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    // A mail scanner fetching the link twice changes nothing.
    await SELF.fetch(link);
    expect(await lead(email)).toMatchObject({ status: "pending" });

    const res = await post(link);
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/newsletter/confirmed");
    const row = await lead(email);
    expect(row).toMatchObject({ status: "confirmed" });
    expect(row!.confirmed_at).toEqual(expect.any(Number));

    // Single use: the same link now answers a clear 404 page, no 5xx, nothing changed.
    const again = await post(link);
    expect(again.status).toBe(404);
    expect(await again.text()).toContain("This link is not valid");
    expect((await SELF.fetch(link)).status).toBe(404);
    expect(await lead(email)).toMatchObject({ status: "confirmed", confirmed_at: row!.confirmed_at });
    // Back to the link in the browser that just confirmed it: it says confirmed, not "not valid".
    const cookie = res.headers.get("Set-Cookie")!.split(";")[0]!;
    const back = await SELF.fetch(link, { headers: { Cookie: cookie } });
    expect(back.status).toBe(200);
    const backHtml = await back.text();
    expect(backHtml).toContain("Subscription confirmed");
    expect(backHtml).not.toContain("This link is not valid");
    // Another link with that cookie is still judged on its own.
    const other = new URL(link);
    other.pathname = other.pathname.replace(/[^/]+$/, "A".repeat(43));
    expect((await SELF.fetch(other, { headers: { Cookie: cookie } })).status).toBe(404);
  });

  it("an expired, forged or truncated token gets a clear page with the signup and a 4xx", async () => {
    const email = unique("expired");
    const link = linkIn(await signUpAndReadMail(email), "confirm");
    const token = link.pathname.split("/").pop()!;
    const cases: [string, number, string][] = [
      [`/newsletter/confirm/${"A".repeat(43)}`, 404, "This link is not valid"],
      [`/newsletter/confirm/${token.slice(0, 20)}`, 404, "This link is not valid"],
      [`/newsletter/confirm/${token}%00`, 404, "This link is not valid"],
      ["/newsletter/confirm/..%2F..%2Fapi%2Fleads", 404, "This link is not valid"],
    ];
    for (const [path, status, text] of cases) {
      for (const res of [await SELF.fetch(`${ORIGIN}${path}`), await post(`${ORIGIN}${path}`)]) {
        expect(res.status, path).toBe(status);
        const html = await res.text();
        expect(html, path).toContain(text);
        expect(html, path).toContain('id="newsletter-newsletter"');
      }
    }
    // Eight days later the real link has expired: 410, and it confirms nothing.
    await env.DB.prepare("UPDATE newsletter_tokens SET created_at = created_at - ?")
      .bind(8 * DAY)
      .run();
    for (const res of [await SELF.fetch(link), await post(link)]) {
      expect(res.status).toBe(410);
      expect(await res.text()).toContain("This link has expired");
    }
    expect(await lead(email)).toMatchObject({ status: "pending" });
  });

  it("repeat signups: confirmed is 409; pending gets the same success and the e-mail again at most every 10 minutes; unsubscribed starts over", async () => {
    const email = unique("repeat");
    await signUpAndReadMail(email, { firstName: "First" });

    // Pending, within 10 minutes: the same 201 (echoing what was sent, not the stored name), no second e-mail.
    const again = await postJson(signup({ email, firstName: "Someone", lastName: null }));
    expect(again.status).toBe(201);
    expect(await again.json()).toMatchObject({ email, firstName: "Someone", lastName: null });
    expect(await outboxTo(email)).toHaveLength(1);

    // Eleven minutes later: a second e-mail, with a link of its own.
    await env.DB.prepare("UPDATE newsletter_tokens SET created_at = created_at - ?")
      .bind(11 * MINUTE)
      .run();
    expect((await postJson(signup({ email }))).status).toBe(201);
    await expect.poll(() => listMail(inbox, { to: email }).then((m) => m.length), { timeout: 10_000 }).toBe(2);
    const [older, newer] = (await listMail(inbox, { to: email })).sort((a, b) => a.id.localeCompare(b.id));
    expect(linkIn(newer!, "confirm").href).not.toBe(linkIn(older!, "confirm").href);

    // Confirmed: 409, no e-mail.
    expect((await post(linkIn(newer!, "confirm"))).status).toBe(303);
    const repeat = await postJson(signup({ email }));
    expect(repeat.status).toBe(409);
    expect(await repeat.json()).toEqual({ message: "Email already subscribed" });
    expect(await outboxTo(email)).toHaveLength(2);

    // Unsubscribed: a new signup makes it pending again, with a new e-mail and consent record.
    await post(linkIn(newer!, "unsubscribe"), { "List-Unsubscribe": "One-Click" });
    expect(await lead(email)).toMatchObject({ status: "unsubscribed" });
    expect((await postJson(signup({ email, source: "blog" }))).status).toBe(201);
    expect(await lead(email)).toMatchObject({
      status: "pending",
      source: "blog",
      confirmed_at: null,
      unsubscribed_at: null,
    });
    await expect.poll(() => listMail(inbox, { to: email }).then((m) => m.length), { timeout: 10_000 }).toBe(3);
  });

  it("concurrent signups of one new address store one lead and send one e-mail", async () => {
    const email = unique("race");
    const answers = await Promise.all(Array.from({ length: 8 }, () => postJson(signup({ email }))));
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM leads WHERE email = ?").bind(email).first())!.n).toBe(1);
    expect(await outboxTo(email)).toHaveLength(1);
  });
});

describe("unsubscribe", () => {
  it("RFC 8058 one-click POST, as a mail client sends it (no cookie, no session), unsubscribes at once", async () => {
    const email = unique("oneclick");
    const mail = await signUpAndReadMail(email);
    await post(linkIn(mail, "confirm"));
    const target = mail.headers["list-unsubscribe"]!.slice(1, -1);
    const res = await post(target, { "List-Unsubscribe": "One-Click" });
    expect(res.status).toBe(200);
    // A plain text answer for the mail client, not the page.
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await res.text()).toBe("Unsubscribed.");
    const row = await lead(email);
    expect(row).toMatchObject({ status: "unsubscribed" });
    expect(row!.unsubscribed_at).toEqual(expect.any(Number));
    // Gone from the default CSV and API, still in ?status=unsubscribed.
    const { jar: admin } = await signIn("admin@example.com");
    expect(await (await get("/admin/leads.csv?status=all", admin)).text()).toContain(email);
    expect((await get("/admin/leads.csv", admin)).status).toBe(409);
    expect(await (await get("/api/leads?status=unsubscribed", admin)).json()).toEqual([
      expect.objectContaining({ email }),
    ]);
  });

  it("GET shows one button and changes nothing; the button unsubscribes and lands on the outcome page", async () => {
    const email = unique("button");
    const link = linkIn(await signUpAndReadMail(email), "unsubscribe");
    const page = await SELF.fetch(link);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Unsubscribe</button>");
    // A question naming the address (masked), claiming nothing before the button.
    expect(html).toContain(`Unsubscribe ${email[0]}•••@${email.split("@")[1]} from the newsletter?`);
    expect(html).toContain("Nothing changes until you press Unsubscribe.");
    expect(html).not.toContain("You are unsubscribed");
    expect(await lead(email)).toMatchObject({ status: "pending" });
    const res = await post(link);
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/newsletter/unsubscribed");
    // Pending: "this wasn't me" (the abuse tests below); the lead is gone, the address suppressed.
    expect(await lead(email)).toBeNull();
    expect(await isSuppressed(env, email)).toBe(true);
    expect(await (await SELF.fetch(`${ORIGIN}/newsletter/unsubscribed`)).text()).toContain("You are unsubscribed");
    // Opened again: the lead is gone, the page still asks and its button still answers truly.
    expect((await SELF.fetch(link)).status).toBe(200);
  });

  it("a confirmed subscriber's link opened after unsubscribing says so, naming the address", async () => {
    const email = unique("again");
    const mail = await signUpAndReadMail(email);
    expect((await post(linkIn(mail, "confirm"))).status).toBe(303);
    const link = linkIn(mail, "unsubscribe");
    expect((await post(link)).status).toBe(303);
    expect(await lead(email)).toMatchObject({ status: "unsubscribed" });
    const html = await (await SELF.fetch(link)).text();
    expect(html).toContain("You are already unsubscribed");
    expect(html).toContain(`${email[0]}•••@${email.split("@")[1]} is not subscribed to the newsletter`);
  });

  it("a forged or altered unsubscribe link is a 404 and unsubscribes nobody", async () => {
    const email = unique("forged");
    const link = linkIn(await signUpAndReadMail(email), "unsubscribe");
    const [id, keyId, sig] = link.pathname.split("/").pop()!.split(".");
    const forged = [
      `${Number(id) + 1}.${keyId}.${sig}`,
      `${id}.${keyId}.${"A".repeat(43)}`,
      `${id}.${sig}`,
      `${id}`,
      `${id}.${keyId}.${sig!.slice(1)}`,
    ];
    for (const token of forged) {
      const url = `${ORIGIN}/newsletter/unsubscribe/${token}`;
      expect((await SELF.fetch(url)).status, token).toBe(404);
      expect((await post(url, { "List-Unsubscribe": "One-Click" })).status, token).toBe(404);
    }
    expect(await lead(email)).toMatchObject({ status: "pending" });
  });
});

describe("consent on record", () => {
  it("stores source, page, consent version and times, and no client address", async () => {
    const email = unique("consent");
    const ip = nextAddress();
    const res = await postForm(
      { email, firstName: "Con", source: "blog", variant: "full", redirectTo: "/blog?page=2" },
      { ip },
    );
    expect(res.status).toBe(303);
    const row = await lead(email);
    expect(row).toMatchObject({
      source: "blog",
      page_path: "/blog?page=2",
      consent_method: "double-opt-in",
      consent_version: CONSENT_VERSION,
      status: "pending",
    });
    expect(row!.subscribed_at).toEqual(expect.any(Number));
    expect(JSON.stringify(row)).not.toContain(ip);
  });

  it("every published consent wording keeps its own version id, and the forms show the current one", async () => {
    const texts = Object.values(CONSENT_COPY);
    expect(new Set(texts).size).toBe(texts.length);
    const html = await (await SELF.fetch(`${ORIGIN}/blog`, { headers: { Accept: "text/html" } })).text();
    expect(html).toContain(`data-consent="${CONSENT_VERSION}"`);
    expect(html.replace(/<[^>]+>/g, "").replaceAll("&#x27;", "'")).toContain(CONSENT_COPY[CONSENT_VERSION]);
  });

  it("a member whose provider verified the e-mail subscribes from Settings, confirmed at once, without an e-mail", async () => {
    const email = unique("member");
    await postJson(signup({ email })); // pending first: Settings confirms it
    await waitForMail(inbox, { to: email });
    const { jar } = await signIn(email);
    const res = await SELF.fetch(`${ORIGIN}/settings`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: jar.header() },
      body: "newsletter=on",
    });
    expect(res.status).toBe(200);
    expect(await lead(email)).toMatchObject({
      status: "confirmed",
      consent_method: "verified-member",
      consent_version: CONSENT_VERSION,
    });
    expect(await outboxTo(email)).toHaveLength(1);
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM newsletter_tokens").first())!.n).toBe(0);
  });
});

describe("a signed-in member's own verified address", () => {
  it("a form signup of it is confirmed at once, without an e-mail; anyone else's address still needs the e-mail", async () => {
    const own = unique("own");
    const other = unique("other");
    const { jar } = await signIn(own);
    for (const email of [own, other]) {
      const res = await postJson(signup({ email }), { headers: { Cookie: jar.header() } });
      expect(res.status).toBe(201);
    }
    expect(await lead(own)).toMatchObject({ status: "confirmed", consent_method: "verified-member" });
    expect(await outboxTo(own)).toHaveLength(0);
    expect(await lead(other)).toMatchObject({ status: "pending", consent_method: "double-opt-in" });
    await waitForMail(inbox, { to: other, subject: CONFIRMATION_SUBJECT });
  });
});

describe("when mail fails", () => {
  it("with the SMTP server down the signup succeeds and is stored; the queue's retry or the Cron Trigger's safety net delivers the e-mail later, exactly once", async () => {
    const email = unique("down");
    const down = { ...env, SMTP_PORT: inject("closedSmtpPort") };
    const request = new Request(`${ORIGIN}/api/leads`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": nextAddress() },
      body: JSON.stringify(signup({ email })),
    });
    // No execution context: nothing is announced, the test hands the message to the consumer itself.
    const res = await handleSignup(request, down);
    expect(res.status).toBe(201);
    expect(await lead(email)).toMatchObject({ status: "pending" });
    const { id } = (await env.DB.prepare("SELECT id FROM mail_outbox WHERE recipient = ?")
      .bind(email)
      .first<{ id: number }>())!;
    const batch = createMessageBatch("afx-mail", [{ id: "m1", timestamp: new Date(), attempts: 1, body: { id } }]);
    await worker.queue(batch, down);
    expect((await getQueueResult(batch, createExecutionContext())).retryMessages.map((m) => m.msgId)).toEqual(["m1"]);
    const [queued] = await env.DB.prepare("SELECT status, attempts, last_error FROM mail_outbox WHERE recipient = ?")
      .bind(email)
      .all()
      .then((r) => r.results);
    expect(queued).toMatchObject({ status: "queued", attempts: 1, last_error: expect.any(String) });
    expect(await listMail(inbox, { to: email })).toHaveLength(0);

    // The server is back (the worker's own env); the Cron Trigger's safety net, after the retry delay and its grace,
    // delivers it, and a later run does not send it again.
    // The Cron Trigger reads the real clock, so three minutes pass in the row.
    const cron = () =>
      worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: "* * * * *" }), env);
    await env.DB.prepare(
      "UPDATE mail_outbox SET next_attempt_at = next_attempt_at - ?, created_at = created_at - ? WHERE id = ?",
    )
      .bind(3 * MINUTE, 3 * MINUTE, id)
      .run();
    await cron();
    const mail = await waitForMail(inbox, { to: email, subject: CONFIRMATION_SUBJECT });
    await cron();
    expect(await listMail(inbox, { to: email })).toHaveLength(1);
    expect((await post(linkIn(mail, "confirm"))).status).toBe(303);
    expect(await lead(email)).toMatchObject({ status: "confirmed" });
  });
});

describe("abuse: nobody can make the group mail anyone", () => {
  const signUps = async (email: string, times: number, over: Record<string, unknown> = {}) => {
    for (let i = 0; i < times; i++) {
      // Each round comes after the 10-minute resend pause.
      await env.DB.prepare("UPDATE newsletter_tokens SET created_at = created_at - ?")
        .bind(11 * MINUTE)
        .run();
      expect((await postJson(signup({ email, ...over }))).status).toBe(201);
    }
  };

  it("the confirmation e-mail has a fixed greeting: nothing the visitor typed reaches it", async () => {
    const email = unique("greeting");
    const firstName = "Win a prize at https://evil.example/x";
    const mail = await signUpAndReadMail(email, { firstName, lastName: "<b>Bold</b>" });
    expect(
      mail.text.startsWith(`${CONFIRMATION_GREETING}\r\n`) || mail.text.startsWith(`${CONFIRMATION_GREETING}\n`),
    ).toBe(true);
    for (const part of [mail.text, mail.html, mail.subject]) {
      expect(part).not.toContain("evil.example");
      expect(part).not.toContain("Bold");
    }
    // The lead keeps the name (it is the visitor's record), only the mail leaves it out.
    expect(await lead(email)).toMatchObject({ first_name: firstName });
  });

  it("at most 3 confirmation e-mails per mailbox, whatever its spelling, until its owner confirms", async () => {
    const base = `cap${crypto.randomUUID().slice(0, 6)}`;
    await signUps(`${base}@gmail.com`, 2);
    // The same Gmail mailbox spelled three other ways: one more e-mail in all, then nothing.
    await signUps(`${base}+news@gmail.com`, 2);
    await signUps(`${base.slice(0, 2)}.${base.slice(2)}@googlemail.com`, 2);
    const { results } = await env.DB.prepare("SELECT recipient FROM mail_outbox").all<{ recipient: string }>();
    expect(results.map((r) => r.recipient)).toEqual([
      `${base}@gmail.com`,
      `${base}@gmail.com`,
      `${base}+news@gmail.com`,
    ]);
    expect((await env.DB.prepare("SELECT sent FROM confirmation_counts").all()).results).toEqual([{ sent: 3 }]);
    // No address is stored with the count.
    expect(JSON.stringify((await env.DB.prepare("SELECT * FROM confirmation_counts").all()).results)).not.toContain(
      base,
    );

    // The owner confirms (with a link they got): the count starts over for a later signup.
    const mail = await waitForMail(inbox, { to: `${base}+news@gmail.com`, subject: CONFIRMATION_SUBJECT });
    expect((await post(linkIn(mail, "confirm"))).status).toBe(303);
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM confirmation_counts").first())!.n).toBe(0);
  });

  it('"this wasn\'t me": the unsubscribe link of a confirmation e-mail suppresses the mailbox; no later signup mails it', async () => {
    const email = `notme.${crypto.randomUUID().slice(0, 6)}@gmail.com`;
    const mail = await signUpAndReadMail(email);
    expect(mail.text).toContain("Not you? Unsubscribe");
    expect((await post(linkIn(mail, "unsubscribe"), { "List-Unsubscribe": "One-Click" })).status).toBe(200);
    // Never confirmed: nothing of it is kept but the keyed hash on the suppression list.
    expect(await lead(email)).toBeNull();
    expect((await env.DB.prepare("SELECT reason FROM suppressed_emails").all()).results).toEqual([
      { reason: "not-me" },
    ]);
    expect(await isSuppressed(env, email)).toBe(true);

    for (const again of [email, email.replace("@", "+2@"), email.replace(".", ""), email.toUpperCase()]) {
      await env.DB.prepare("DELETE FROM newsletter_tokens").run();
      const res = await postJson(signup({ email: again }));
      expect(res.status, again).toBe(201); // answered like anyone, so the list cannot be probed
    }
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM leads").first())!.n).toBe(0);
    expect(await outboxTo(email)).toEqual([{ status: "sent" }]);
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM mail_outbox").first())!.n).toBe(1);
    // Clicking again changes nothing and still answers.
    expect((await post(linkIn(mail, "unsubscribe"))).status).toBe(303);
  });

  it("the unsubscribe link of a confirmed subscriber only unsubscribes (no suppression: they may sign up again)", async () => {
    const email = unique("confirmed-unsub");
    const mail = await signUpAndReadMail(email);
    await post(linkIn(mail, "confirm"));
    await post(linkIn(mail, "unsubscribe"), { "List-Unsubscribe": "One-Click" });
    expect(await lead(email)).toMatchObject({ status: "unsubscribed" });
    expect(await isSuppressed(env, email)).toBe(false);
  });

  it("a pending lead is deleted 30 days after its signup however often it was re-sent, with its queued e-mails; no link is sent that would outlive it", async () => {
    const now = Date.now();
    const email = unique("expire");
    await signUpAndReadMail(email);
    // 24 days on: a repeat signup gets the same answer and no new link (it could not live its 7 days).
    await env.DB.batch([
      env.DB.prepare("UPDATE leads SET subscribed_at = subscribed_at - ?").bind(24 * DAY),
      env.DB.prepare("UPDATE newsletter_tokens SET created_at = created_at - ?").bind(11 * MINUTE),
    ]);
    expect((await postJson(signup({ email }))).status).toBe(201);
    expect(await outboxTo(email)).toHaveLength(1);

    // 31 days on, with a link made yesterday and an e-mail still queued: all of it goes.
    await env.DB.batch([
      env.DB.prepare("UPDATE leads SET subscribed_at = ? WHERE email = ?").bind(now - 31 * DAY, email),
      env.DB.prepare("UPDATE newsletter_tokens SET created_at = ?").bind(now - DAY),
      env.DB.prepare(
        `INSERT INTO mail_outbox (kind, recipient, subject, text_body, html_body, status, attempts, next_attempt_at, created_at)
         VALUES ('newsletter-confirm', ?1, 's', 't', 'h', 'queued', 3, ?2, ?2)`,
      ).bind(email, now + 10 * MINUTE),
    ]);
    await runScheduledJobs(env, now);
    expect(await lead(email)).toBeNull();
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM newsletter_tokens").first())!.n).toBe(0);
    expect(await outboxTo(email)).toEqual([{ status: "sent" }]);
  });

  it("suppression folds +tags and Gmail's dots, and still finds entries written before folding", async () => {
    const id = crypto.randomUUID().slice(0, 6);
    expect(foldEmail(` Vic.Tim+${id}@GoogleMail.com `)).toBe("victim@gmail.com");
    expect(foldEmail("first.last+x@example.com")).toBe("first.last@example.com");
    expect(foldEmail("+only@example.com")).toBe("+only@example.com");
    await runBatch(getDb(env), await suppressStatements(env, `erased${id}@example.com`, "erased"));
    for (const spelling of [`erased${id}+1@example.com`, `ERASED${id}+a+b@Example.com`])
      expect(await isSuppressed(env, spelling), spelling).toBe(true);
    expect(await isSuppressed(env, `erased${id}1@example.com`)).toBe(false);
    // An entry of the old kind (the address as typed, +tag included) is still honoured.
    const legacy = await hmacSign("test-session-secret", `suppressed-email:old${id}+x@example.com`);
    await env.DB.prepare("INSERT INTO suppressed_emails (email_hash, reason, created_at) VALUES (?, 'erased', 0)")
      .bind(legacy)
      .run();
    expect(await isSuppressed(env, `old${id}+x@example.com`)).toBe(true);
  });
});

describe("the scheduled job and the admin views", () => {
  it("removes pending leads older than 30 days, keeps the rest", async () => {
    const now = Date.now();
    await insertLeads(
      [
        { email: "old-pending@example.com", ago: 31 * DAY, status: "pending" },
        { email: "new-pending@example.com", ago: 29 * DAY, status: "pending" },
        { email: "old-confirmed@example.com", ago: 400 * DAY },
        { email: "old-unsubscribed@example.com", ago: 400 * DAY, status: "unsubscribed" },
      ],
      now,
    );
    await runScheduledJobs(env, now);
    const { results } = await env.DB.prepare("SELECT email FROM leads ORDER BY email").all<{ email: string }>();
    expect(results.map((r) => r.email)).toEqual([
      "new-pending@example.com",
      "old-confirmed@example.com",
      "old-unsubscribed@example.com",
    ]);
  });

  it("the dashboard shows the outbox's queue depth and its oldest waiting e-mail while mail waits, and nothing when none does", async () => {
    const { jar: admin } = await signIn("admin@example.com");
    expect(await (await get("/admin/leads", admin)).text()).not.toContain('data-testid="mail-queue"');
    const now = Date.now();
    await env.DB.batch(
      [12 * MINUTE, 40_000, 0].map((ago, i) =>
        env.DB.prepare(
          `INSERT INTO mail_outbox (kind, recipient, subject, text_body, html_body, status, attempts, next_attempt_at, created_at)
           VALUES ('contact-notification', ?1, 's', 't', 'h', 'queued', 1, ?2, ?3)`,
        ).bind(`waiting-${i}@example.com`, now + 10 * MINUTE, now - ago),
      ),
    );
    // A sent one does not count.
    await env.DB.prepare(
      `INSERT INTO mail_outbox (kind, recipient, subject, text_body, html_body, status, attempts, next_attempt_at, created_at, sent_at)
       VALUES ('contact-notification', 'sent@example.com', 's', '', '', 'sent', 1, 0, ?1, ?1)`,
    )
      .bind(now - DAY)
      .run();
    const html = await (await get("/admin/leads", admin)).text();
    expect(html).toContain("E-mails waiting to be sent");
    expect(html).toMatch(/data-testid="mail-queue-depth"[^>]*>3</);
    expect(html).toMatch(/data-testid="mail-queue-oldest"[^>]*>12 min</);
  });

  it("the API, the stats and the CSV serve confirmed leads by default and take ?status=", async () => {
    await insertLeads([
      { email: "c1@example.com", source: "blog" },
      { email: "c2@example.com", source: "footer" },
      { email: "p1@example.com", source: "blog", status: "pending" },
      { email: "u1@example.com", source: "popup", status: "unsubscribed" },
    ]);
    const { jar: admin } = await signIn("admin@example.com");
    const emails = async (path: string) =>
      ((await (await get(path, admin)).json()) as { email: string }[]).map((l) => l.email).sort();
    expect(await emails("/api/leads")).toEqual(["c1@example.com", "c2@example.com"]);
    expect(await emails("/api/leads?status=pending")).toEqual(["p1@example.com"]);
    expect(await emails("/api/leads?status=all")).toHaveLength(4);
    expect(await (await get("/api/leads/stats", admin)).json()).toMatchObject({
      total: 2,
      bySource: { blog: 1, footer: 1 },
    });
    expect(await (await get("/api/leads/stats?status=unsubscribed", admin)).json()).toMatchObject({
      total: 1,
      bySource: { popup: 1 },
    });
    const csv = await (await get("/admin/leads.csv", admin)).text();
    expect(csv).toContain("c1@example.com");
    expect(csv).not.toContain("p1@example.com");
    // (text() drops the BOM; leads-data.test.ts checks the bytes.)
    expect(`${csv.split("\r\n")[0]}\r\n`).toBe(csvRow(CSV_HEADER));
    for (const path of ["/api/leads?status=bogus", "/api/leads/stats?status=", "/admin/leads.csv?status=CONFIRMED"]) {
      const res = await get(path, admin);
      expect(res.status, path).toBe(path.endsWith("status=") ? 200 : 400);
    }
    // An e-mail given up after a day of retries shows on the dashboard.
    await env.DB.prepare(
      `INSERT INTO mail_outbox (kind, recipient, subject, text_body, html_body, status, attempts, next_attempt_at, last_error, created_at)
       VALUES ('newsletter-confirm', 'lost@example.com', 'Confirm your subscription', '', '', 'failed', 12, 0, '550 mailbox unavailable', ?)`,
    )
      .bind(Date.now() - DAY)
      .run();
    const dashboard = await (await get("/admin/leads", admin)).text();
    expect(dashboard).toContain("Undelivered e-mails");
    expect(dashboard).toMatch(/data-testid="failed-mail"[\s\S]*lost@example\.com[\s\S]*550 mailbox unavailable/);
    expect(dashboard).toMatch(/data-testid="stat-total-subscribers"[^>]*>2</);
    expect(dashboard).toMatch(/data-testid="stat-pending"[^>]*>1</);
    expect(dashboard).toMatch(/data-testid="stat-unsubscribed"[^>]*>1</);
  });
});
