// Security and privacy, round two (issue 24): the limiter, contact notifications in erasure and
// export, audits, personal data and secrets in URLs and logs, logout's origin check, the HTML
// cache key and production's refusals. Each test failed on the code before its fix.
import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, inject, it, vi } from "vitest";
import wranglerToml from "../../wrangler.toml?raw";
import worker from "../../worker/server";
import { htmlCacheKey } from "../../worker/html-cache";
import { configProblems } from "../../worker/production-config";
import { runScheduledJobs } from "../../worker/scheduled";
import { limitClient, type FormScope } from "~/features/forms/rate-limit.server";
import { notificationSubject } from "~/features/contact/notification-mail.server";
import { deliverDueMail } from "~/features/mail/outbox.server";
import { erasePerson } from "~/features/privacy/erase.server";
import { exportPerson } from "~/features/privacy/export.server";
import { adminDelete, getLead } from "~/features/leads/lead-actions.server";
import { log } from "~/utils/log.server";
import { action as helpAction } from "~/routes/help";
import { listMail } from "../fixtures/inbox";
import { get, Jar, ORIGIN, signIn } from "./auth-helpers";
import { GOOD_PRODUCTION_VARS } from "../fixtures/production-vars";

/** A browser's form post names its Host and Origin (Remix compares them on page actions). */
const HOST = new URL(ORIGIN).host;

afterEach(() => vi.restoreAllMocks());
beforeEach(async () => {
  await env.DB.batch(["rate_limits", "audit_log", "mail_outbox", "contact_messages", "leads", "suppressed_emails"].map((t) => env.DB.prepare(`DELETE FROM ${t}`)));
});

type Incoming = Parameters<typeof worker.fetch>[0];
/** The whole worker (server.ts) with its own variables, as a deploy with them would answer. */
async function fetchWith(vars: Partial<Env>, request: Request) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(request as Incoming, { ...env, ...vars } as Env, ctx);
  await res.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return res;
}

const signupRequest = (ip: string, email: string) =>
  new Request(`${ORIGIN}/api/leads`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": ip },
    body: JSON.stringify({ email, firstName: "F" }),
  });

const limiterRows = async () =>
  (await env.DB.prepare("SELECT key, count FROM rate_limits ORDER BY key").all<{ key: string; count: number }>()).results;

/** Runs `test` again (once) when a fixed window of the limit ended during it. */
async function inOneWindow(windowMs: number, test: () => Promise<void>) {
  const windowOf = () => Math.floor(Date.now() / windowMs);
  const start = windowOf();
  try {
    await test();
  } catch (error) {
    if (windowOf() === start) throw error;
    await env.DB.prepare("DELETE FROM rate_limits").run();
    await test();
  }
}

describe("1. one client's flood locks out nobody else", () => {
  // 10 per client, 100 for everyone (the default's ratio, 100 clients' worth, at a tenth of its size).
  const LIMIT = { LEADS_RATE_LIMIT: "10/600/100" };

  it("another client's signups get 201 while one address floods the form (and the share is reported)", async () => {
    await inOneWindow(600_000, async () => {
      await env.DB.prepare("DELETE FROM rate_limits").run();
      const flood: number[] = [];
      const innocent: number[] = [];
      for (let i = 0; i < 300; i++) {
        flood.push((await fetchWith(LIMIT, signupRequest("192.0.2.66", `flood-${i}@example.com`))).status);
        // Ten signups, spread over the flood: the innocent client's own limit.
        if (i % 30 === 29) innocent.push((await fetchWith(LIMIT, signupRequest("192.0.2.77", `innocent-${i}@example.com`))).status);
      }
      const share = innocent.filter((s) => s === 201).length / innocent.length;
      console.info(`[flood] one address sent 300 signups; the other client's 201 share: ${(share * 100).toFixed(0)}% (${innocent.join(" ")})`);
      expect(flood.slice(0, 10)).toEqual(Array(10).fill(201));
      expect(new Set(flood.slice(10))).toEqual(new Set([429]));
      expect(innocent).toEqual(Array(10).fill(201));
    });
  }, 60_000);

  it.each(["signup", "contact", "account", "clientError"] satisfies FormScope[])("%s: a client over its limit adds nothing to the form's ceiling", async (scope) => {
    const limited = { ...env, ...LIMIT } as Env;
    const request = (ip: string) => new Request(`${ORIGIN}/`, { method: "POST", headers: { "CF-Connecting-IP": ip } });
    await inOneWindow(600_000, async () => {
      await env.DB.prepare("DELETE FROM rate_limits").run();
      for (let i = 0; i < 150; i++) await limitClient(request("192.0.2.10"), limited, scope);
      expect((await limitClient(request("192.0.2.11"), limited, scope)).allowed).toBe(true);
      const global = (await limiterRows()).find((r) => r.key === `*${scope}`);
      expect(global?.count).toBe(11);
    });
  });

  it("an anonymous POST /api/logout counts against no one's account limit", async () => {
    for (let i = 0; i < 12; i++) {
      const res = await get("/api/logout", undefined, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": "192.0.2.20", Origin: ORIGIN, Host: HOST },
        body: "",
      });
      expect(res.status).toBe(302);
    }
    expect(await limiterRows()).toEqual([]);
    // A member's logout is counted.
    const { jar } = await signIn("counted@example.com");
    const res = await get("/api/logout", jar, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": "192.0.2.20", Origin: ORIGIN, Host: HOST },
      body: "",
    });
    expect(res.status).toBe(302);
    expect((await limiterRows()).map((r) => r.count)).toEqual([1, 1]);
  });
});

describe("3. cheap checks come before any write of the limiter", () => {
  const errorReport = (init: RequestInit & { headers?: Record<string, string> }) =>
    SELF.fetch(`${ORIGIN}/api/client-errors`, { method: "POST", ...init, headers: { "CF-Connecting-IP": "192.0.2.30", ...init.headers } });

  it("refused, malformed and cross-site requests write nothing", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { jar } = await signIn("cheap@example.com");
    const answers = [
      (await errorReport({ headers: { "Content-Type": "text/plain" }, body: "x" })).status,
      (await errorReport({ headers: { "Content-Type": "application/json" }, body: JSON.stringify({ message: "x".repeat(4096), path: "/" }) })).status,
      (await errorReport({ headers: { "Content-Type": "application/json" }, body: "{not json" })).status,
      (await errorReport({ headers: { "Content-Type": "application/json" }, body: JSON.stringify({ path: "/" }) })).status,
      (await SELF.fetch(`${ORIGIN}/api/client-errors`, { headers: { "CF-Connecting-IP": "192.0.2.30" } })).status,
      (await get("/api/logout", jar, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://evil.example" }, body: "" })).status,
      (await get("/api/logout", jar, { method: "POST", headers: { "Content-Type": "text/plain", Origin: ORIGIN, Host: HOST }, body: "x" })).status,
      (await get("/help", undefined, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://evil.example" }, body: "a=b" })).status,
      (await get("/settings/data", jar, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://evil.example" }, body: "" })).status,
    ];
    expect(answers).toEqual([415, 413, 400, 400, 405, 403, 415, 403, 403]);
    expect(await limiterRows()).toEqual([]);
  });

  it("a client already over its limit costs no write: its count stops one past the limit", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    await inOneWindow(600_000, async () => {
      await env.DB.prepare("DELETE FROM rate_limits").run();
      const statuses = [];
      for (let i = 0; i < 15; i++) {
        statuses.push((await errorReport({ headers: { "Content-Type": "application/json" }, body: JSON.stringify({ message: `m${i}`, path: "/" }) })).status);
      }
      expect(statuses).toEqual([...Array(10).fill(204), ...Array(5).fill(429)]);
      const rows = await limiterRows();
      expect(rows.find((r) => r.key === "*clientError")?.count).toBe(10);
      expect(rows.filter((r) => !r.key.startsWith("*")).map((r) => r.count)).toEqual([11]);
    });
  });
});

describe("6. POST /api/logout checks the origin like every other POST", () => {
  it("a cross-site logout is a 403 and the session lives on", async () => {
    const { jar } = await signIn("stays@example.com");
    for (const headers of [{ Origin: "https://evil.example" }, { "Sec-Fetch-Site": "cross-site" }] as Record<string, string>[]) {
      const res = await get("/api/logout", jar, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
        body: "everywhere=on",
      });
      expect(res.status).toBe(403);
      expect(res.headers.getSetCookie().join()).not.toMatch(/afx_session=;/);
    }
    expect((await get("/api/auth/user", jar)).status).toBe(200);
  });
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
  const result = await helpAction({ request: helpRequest(fields), context: { cloudflare: { env: down, ctx } } as never, params: {} });
  await waitOnExecutionContext(ctx);
  expect(result).toMatchObject({ sent: true });
}

describe("2. erasure and export cover the contact notification", () => {
  const MINUTE = 60_000;

  it("a Help message queued while SMTP is down, then its sender erased: nothing is delivered, nothing of them remains", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const t = crypto.randomUUID().slice(0, 8);
    const fields = { name: `Erin ${t}`, email: `erin-${t}@example.com`, subject: `Private matter ${t}`, message: `Please forget me ${t}` };
    await sendWhileSmtpIsDown(fields);
    const subject = notificationSubject(fields.subject);

    // While it exists, the notification is part of the sender's data.
    const doc = await exportPerson(env.DB, fields.email);
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
      headers: { "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": "192.0.2.41", Origin: ORIGIN, Host: HOST },
      body: new URLSearchParams({ name: `Mem ${t}`, email: `other-${t}@example.com`, subject: `Sent signed in ${t}`, message: "Hello" }).toString(),
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
    const { results } = await env.DB.prepare("SELECT id FROM mail_outbox WHERE status = 'failed' ORDER BY id").all<{ id: number }>();
    expect(results.map((r) => r.id)).toEqual([902]);
  });
});

describe("4. exports are audited, and a delete is audited in its erasure's batch", () => {
  const post = (path: string, fields: Record<string, string>, jar: Jar) =>
    get(path, jar, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN, Host: HOST }, body: new URLSearchParams(fields).toString() });

  it("Export this person writes an audit entry without the address", async () => {
    const { jar } = await signIn("admin@example.com");
    const res = await post("/admin/people/export", { email: "Quinn@Example.com" }, jar);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const { results } = await env.DB.prepare("SELECT actor, action, target FROM audit_log").all();
    expect(results).toEqual([{ actor: "admin@example.com", action: "person.export", target: "q***@example.com" }]);
  });

  it("the leads CSV export writes an audit entry with its filters", async () => {
    await env.DB.prepare("INSERT INTO leads (email, first_name, source, subscribed_at, status) VALUES ('csv@example.com', 'C', 'footer', ?, 'confirmed')").bind(Date.now()).run();
    const { jar } = await signIn("admin@example.com");
    const res = await get("/admin/leads.csv?source=footer&q=csv%40example.com", jar);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("csv@example.com");
    const { results } = await env.DB.prepare("SELECT actor, action, target, detail FROM audit_log").all<Record<string, string>>();
    expect(results).toEqual([{ actor: "admin@example.com", action: "leads.export", target: "leads CSV", detail: expect.stringContaining("source=footer") }]);
    // The search may be an address: the audit log keeps only that there was one.
    expect(JSON.stringify(results)).not.toContain("csv@");
  });

  it("a delete whose audit entry cannot be written erases nothing", async () => {
    await env.DB.prepare("INSERT INTO leads (email, first_name, source, subscribed_at, status) VALUES ('kept@example.com', 'K', 'footer', ?, 'confirmed')").bind(Date.now()).run();
    const lead = (await getLead(env.DB, (await env.DB.prepare("SELECT id FROM leads WHERE email = 'kept@example.com'").first<{ id: number }>())!.id))!;
    await env.DB.prepare("CREATE TRIGGER audit_down BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'audit log unavailable'); END").run();
    try {
      await expect(adminDelete(env, lead, "admin@example.com")).rejects.toThrow(/audit log unavailable/);
    } finally {
      await env.DB.prepare("DROP TRIGGER audit_down").run();
    }
    expect(await env.DB.prepare("SELECT email FROM leads WHERE id = ?").bind(lead.id).first()).toEqual({ email: "kept@example.com" });
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM suppressed_emails").first("n")).toBe(0);
    // And when it can, the entry says what went.
    await adminDelete(env, lead, "admin@example.com");
    expect(await env.DB.prepare("SELECT action, detail FROM audit_log").all().then((r) => r.results)).toEqual([{ action: "lead.delete", detail: "was confirmed; erased lead" }]);
  });
});

describe("5. no address in the notification's link, no secret in our log lines", () => {
  it("the notification links to the message by its number, and the inbox opens on it", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const t = crypto.randomUUID().slice(0, 8);
    const fields = { name: "Link Test", email: `link-${t}@example.com`, subject: `Link ${t}`, message: "Where does the link go?" };
    await sendWhileSmtpIsDown(fields);
    const { id } = (await env.DB.prepare("SELECT id FROM contact_messages WHERE email = ?").bind(fields.email).first<{ id: number }>())!;
    const mail = (await env.DB.prepare("SELECT text_body, html_body FROM mail_outbox WHERE kind = 'contact-notification'").first<{ text_body: string; html_body: string }>())!;
    const link = `https://afx.test/admin/messages?message=${id}`;
    expect(mail.text_body).toContain(link);
    expect(mail.html_body).toContain(`href="${link}"`);
    for (const url of `${mail.text_body} ${mail.html_body}`.match(/https?:\/\/[^\s"<>]+/g) ?? []) expect(url).not.toMatch(/@|%40/);

    // Another message, so the page shows only the linked one.
    await sendWhileSmtpIsDown({ ...fields, email: `second-${t}@example.com`, subject: `Second ${t}` });
    const { jar } = await signIn("admin@example.com");
    const html = await (await get(`/admin/messages?message=${id}`, jar)).text();
    expect(html).toContain(fields.subject);
    expect(html).not.toContain(`Second ${t}`);
  });

  it("a log line never carries a query string or a link's token", () => {
    const lines: unknown[][] = [];
    vi.spyOn(console, "error").mockImplementation((...args) => void lines.push(args));
    const token = "tok3n-s3cret-0123456789abcdef";
    log("error", "render error", {
      url: `https://afx.test/newsletter/unsubscribe/${token}?utm=1`,
      error: new Error(`fetch https://afx.test/admin/leads?q=ada%40example.com failed at /newsletter/confirm/${token}`),
    });
    const text = JSON.stringify(lines);
    expect(text).not.toContain(token);
    expect(text).not.toContain("ada%40example.com");
    expect(text).not.toContain("utm=1");
    expect(text).toContain("/newsletter/unsubscribe/");
  });

  it("Workers Logs drop query strings from request URLs, in production too", () => {
    const sections = wranglerToml.split(/^\[/m).filter((s) => /^(env\.production\.)?observability\]/.test(s));
    expect(sections).toHaveLength(2);
    for (const section of sections) expect(section).toMatch(/^redact_query_string = true$/m);
  });
});

describe("7. the HTML cache key cannot be forged from the URL", () => {
  const key = (path: string, headers: Record<string, string> = {}) =>
    htmlCacheKey(new Request(`${ORIGIN}${path}`, { headers: { Accept: "text/html", ...headers } }), "v1")?.url ?? null;

  it("a browser's URL that spells the crawler's key parameters gets its own entry", () => {
    const crawler = key("/funding", { "User-Agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" });
    const forgedUrl = new URL(crawler!).search;
    expect(key(`/funding${forgedUrl}`)).not.toBe(crawler);
    // Nor can a URL pick another build's or another sidebar state's entry.
    const plain = key("/funding", { Cookie: "sidebar_state=hidden" });
    expect(key(`/funding${new URL(plain!).search}`)).not.toBe(plain);
    expect(key("/funding?__v=v2")).not.toBe(key("/funding"));
  });
});

describe("8. production refuses the example contact addresses and the placeholder client id", () => {
  const good = { ...env, ...GOOD_PRODUCTION_VARS };

  it.each([
    ["CONTACT_EMAIL", "hello@example.com"],
    ["INVESTOR_EMAIL", "investors@example.com"],
    ["OAUTH_CLIENT_ID", "REPLACE-WITH-THE-PRODUCTION-CLIENT-ID"],
    ["OAUTH_CLIENT_ID", "afx-local"],
  ])("%s = %s", (name, value) => {
    expect(configProblems(good)).toEqual([]);
    expect(configProblems({ ...good, [name]: value })).toEqual([expect.stringMatching(new RegExp(`^${name}`))]);
    expect(configProblems({ ...good, [name]: value, ENVIRONMENT: "development" })).toEqual([]);
  });

  it("the committed production variables are refused until they are replaced", () => {
    const production = wranglerToml.slice(wranglerToml.indexOf("[env.production.vars]"));
    for (const name of ["CONTACT_EMAIL", "INVESTOR_EMAIL", "OAUTH_CLIENT_ID"]) {
      const value = production.match(new RegExp(`^${name} = "([^"]*)"`, "m"))![1]!;
      expect(configProblems({ ...good, [name]: value }), name).toEqual([expect.stringMatching(new RegExp(`^${name}`))]);
    }
  });
});
