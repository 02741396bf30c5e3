// Members' own data and the person export/erasure (docs/decisions/019-personal-data.md), against
// the real local D1, real sessions from the local OpenID provider and the real signup path.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import {
  EXPORTED,
  NOT_EXPORTED,
  exportPerson,
  type PersonalDataExport,
  type PersonalTable,
} from "~/features/privacy/export.server";
import { erasePerson } from "~/features/privacy/erase.server";
import { flashToastOf, get, Jar, ORIGIN, signIn } from "./auth-helpers";
import { postJson, signup } from "./leads-helpers";
import { getDb } from "~/utils/db.server";

const MIA = "mia@example.com";
const OTHER = "olu@example.com";

function post(path: string, fields: Record<string, string>, jar?: Jar, headers: Record<string, string> = {}) {
  return get(path, jar, {
    method: "POST",
    // What a browser sends with a form post (Remix compares Origin with Host on page actions).
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: ORIGIN,
      Host: new URL(ORIGIN).host,
      ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  });
}

const count = async (sql: string, ...params: unknown[]) =>
  (await env.DB.prepare(`SELECT COUNT(*) AS n FROM (${sql})`)
    .bind(...params)
    .first<{ n: number }>())!.n;

/** Rows about `email` in every personal table. */
async function footprint(email: string) {
  const ids = (
    await env.DB.prepare("SELECT id FROM users WHERE lower(email) = ?").bind(email).all<{ id: string }>()
  ).results.map((r) => r.id);
  const inIds = ids.map(() => "?").join(", ");
  return {
    users: ids.length,
    sessions: await count(`SELECT 1 FROM sessions WHERE user_id IN (${inIds})`, ...ids),
    leads: await count("SELECT 1 FROM leads WHERE email = ?", email),
    tokens: await count("SELECT 1 FROM newsletter_tokens t JOIN leads l ON l.id = t.lead_id WHERE l.email = ?", email),
    messages: await count(
      `SELECT 1 FROM contact_messages WHERE lower(email) = ? OR user_id IN (${inIds})`,
      email,
      ...ids,
    ),
    mail: await count("SELECT 1 FROM mail_outbox WHERE lower(recipient) = ?", email),
  };
}

/** A member with something in every personal table: two sessions, a pending lead with its link and e-mail, two messages. */
async function seedMember(email: string, name: string) {
  const first = await signIn(email, { name });
  const second = await signIn(email, { name });
  const user = (await env.DB.prepare("SELECT id FROM users WHERE email = ?").bind(email).first<{ id: string }>())!;
  expect((await postJson(signup({ email, firstName: name.split(" ")[0] }))).status).toBe(201);
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO contact_messages (name, email, subject, message, user_id, user_agent) VALUES (?, ?, 'Hello', 'A question', ?, 'UA/1')",
    ).bind(name, email, user.id),
    // Sent signed out, from another address: still theirs, by the member id.
    env.DB.prepare(
      "INSERT INTO contact_messages (name, email, subject, message, user_id) VALUES (?, 'work@elsewhere.example', 'Second', 'More', ?)",
    ).bind(name, user.id),
  ]);
  return { jar: first.jar, otherJar: second.jar, userId: user.id };
}

beforeEach(async () => {
  await env.DB.batch(
    [
      "sessions",
      "users",
      "newsletter_tokens",
      "leads",
      "contact_messages",
      "mail_outbox",
      "suppressed_emails",
      "confirmation_counts",
      "rate_limits",
    ].map((t) => env.DB.prepare(`DELETE FROM ${t}`)),
  );
});

describe("the person export", () => {
  it("holds every column of every personal table, or names why one is left out", async () => {
    await seedMember(MIA, "Mia Park");
    const doc = await exportPerson(getDb(env), MIA);
    const missing: string[] = [];
    for (const table of Object.keys(EXPORTED) as PersonalTable[]) {
      const { results } = await env.DB.prepare(`PRAGMA table_info(${table})`).all<{ name: string }>();
      const rows = doc[EXPORTED[table].section as keyof PersonalDataExport] as Record<string, unknown>[];
      expect(rows.length, `${table} has rows in the export`).toBeGreaterThan(0);
      for (const { name } of results) {
        const reasons: Record<string, string> = NOT_EXPORTED[table];
        const excluded = name in reasons;
        if (excluded) {
          expect(reasons[name]!.length, `${table}.${name} has a reason`).toBeGreaterThan(10);
          expect(rows[0], `${table}.${name} is excluded, so not exported`).not.toHaveProperty(name);
        } else if (!rows.every((r) => name in r)) {
          missing.push(`${table}.${name}`);
        }
      }
      // Nothing listed that the table does not have (a renamed column).
      for (const column of [...EXPORTED[table].columns, ...Object.keys(NOT_EXPORTED[table])]) {
        expect(
          results.map((r) => r.name),
          `${table} has ${column}`,
        ).toContain(column);
      }
    }
    expect(missing).toEqual([]);
  });

  it("holds this person's data and nobody else's, with readable values and no credentials", async () => {
    const { userId } = await seedMember(MIA, "Mia Park");
    await seedMember(OTHER, "Olu Ade");
    const doc = await exportPerson(getDb(env), " MIA@Example.com ");
    expect(doc.email).toBe(MIA);
    expect(doc.memberAccounts).toEqual([
      expect.objectContaining({ id: userId, email: MIA, email_verified: true, role: "member" }),
    ]);
    expect(doc.sessions).toHaveLength(2);
    expect(doc.sessions[0]!.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(doc.newsletter).toEqual([
      expect.objectContaining({
        email: MIA,
        status: "pending",
        consent_method: "double-opt-in",
        user_agent: "TestAgent/1.0",
      }),
    ]);
    expect(doc.pendingConfirmationLinks).toHaveLength(1);
    expect(doc.contactMessages.map((m) => m.subject).sort()).toEqual(["Hello", "Second"]);
    expect(doc.emails).toEqual([expect.objectContaining({ recipient: MIA, kind: "newsletter-confirm" })]);
    const text = JSON.stringify(doc);
    expect(text).not.toContain(OTHER);
    const secrets = await env.DB.prepare(
      "SELECT id AS v FROM sessions UNION ALL SELECT token_hash FROM newsletter_tokens",
    ).all<{ v: string }>();
    for (const { v } of secrets.results) expect(text).not.toContain(v);
  });
});

describe("Download my data (POST /settings/data)", () => {
  it("answers the member's export as a dated download no cache keeps", async () => {
    const { jar, userId } = await seedMember(MIA, "Mia Park");
    const res = await post("/settings/data", {}, jar);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toBe(
      `attachment; filename="afx-my-data-${new Date().toISOString().slice(0, 10)}.json"`,
    );
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    const doc = (await res.json()) as PersonalDataExport;
    expect(doc.memberAccounts[0]!.id).toBe(userId);
    expect(doc.newsletter).toHaveLength(1);
  });

  it("refuses the signed-out (401) and a cross-site post (403)", async () => {
    const { jar } = await seedMember(MIA, "Mia Park");
    expect((await post("/settings/data", {})).status).toBe(401);
    const cross = await post("/settings/data", {}, jar, { Origin: "https://evil.example" });
    expect(cross.status).toBe(403);
    expect(cross.headers.get("Content-Disposition")).toBeNull();
  });

  it("gives an unverified address's records only to the account itself", async () => {
    const { jar, userId } = await seedMember(MIA, "Mia Park");
    await env.DB.prepare("UPDATE users SET email_verified = 0 WHERE id = ?").bind(userId).run();
    const doc = (await (await post("/settings/data", {}, jar)).json()) as PersonalDataExport;
    expect(doc.memberAccounts).toHaveLength(1);
    expect(doc.newsletter).toEqual([]);
    expect(doc.emails).toEqual([]);
    // Both messages carry the member's id.
    expect(doc.contactMessages).toHaveLength(2);
  });
});

describe("Delete Account (/settings/delete)", () => {
  it("sends the signed-out to sign in first, and shows the member the confirmation form", async () => {
    const anon = await get("/settings/delete");
    expect(anon.status).toBe(302);
    expect(anon.headers.get("Location")).toBe("/api/login?returnTo=%2Fsettings%2Fdelete");
    const { jar } = await seedMember(MIA, "Mia Park");
    const page = await get("/settings/delete", jar);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/<form[^>]*method="post"[^>]*action="\/settings\/delete"/);
    expect(html).toMatch(/<input[^>]*name="email"/);
  });

  it("erases the member's data, keeps only a keyed hash, and ends every session", async () => {
    const { jar, otherJar, userId } = await seedMember(MIA, "Mia Park");
    await seedMember(OTHER, "Olu Ade");
    const before = await footprint(MIA);
    expect(before).toEqual({ users: 1, sessions: 2, leads: 1, tokens: 1, messages: 2, mail: 1 });

    const res = await post("/settings/delete", { email: "  Mia@EXAMPLE.com " }, jar);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
    expect(await flashToastOf(res)).toMatchObject({ title: "Account deleted" });
    jar.update(res);
    expect(jar.names().filter((n) => n.endsWith("afx_session"))).toEqual([]);

    expect(await footprint(MIA)).toEqual({ users: 0, sessions: 0, leads: 0, tokens: 0, messages: 0, mail: 0 });
    expect(await count("SELECT 1 FROM contact_messages WHERE user_id = ?", userId)).toBe(0);
    // The other person is untouched.
    expect(await footprint(OTHER)).toEqual({ users: 1, sessions: 2, leads: 1, tokens: 1, messages: 2, mail: 1 });

    // Signed out everywhere: the session of the other device is refused and its cookie removed.
    const elsewhere = await get("/api/auth/user", otherJar);
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.headers.getSetCookie().join()).toMatch(/afx_session=;/);

    // One suppression entry, which reads as nothing.
    const { results } = await env.DB.prepare("SELECT * FROM suppressed_emails").all<Record<string, unknown>>();
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ reason: "erased", email_hash: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    const stored = JSON.stringify(results).toLowerCase();
    expect(stored).not.toContain("mia");
    expect(stored).not.toContain("example.com");
  });

  it("keeps a suppressed address off the list: a signup stores and mails nothing, its verified owner can come back", async () => {
    const { jar } = await seedMember(MIA, "Mia Park");
    await post("/settings/delete", { email: MIA }, jar);
    const again = await postJson(signup({ email: MIA }));
    expect(again.status).toBe(201); // answered like anyone's
    expect(await footprint(MIA)).toMatchObject({ leads: 0, mail: 0 });

    // Signing in again and turning the newsletter on from Settings is the owner asking.
    const back = await signIn(MIA, { name: "Mia Park" });
    const saved = await post("/settings", { newsletter: "on" }, back.jar);
    expect(saved.status).toBe(200);
    expect(await env.DB.prepare("SELECT status FROM leads WHERE email = ?").bind(MIA).first("status")).toBe(
      "confirmed",
    );
    expect(await count("SELECT 1 FROM suppressed_emails")).toBe(0);
  });

  it("refuses a wrong address with a 400 and erases nothing", async () => {
    const { jar } = await seedMember(MIA, "Mia Park");
    const before = await footprint(MIA);
    for (const email of [OTHER, "", "mia@example.co"]) {
      const res = await post("/settings/delete", { email }, jar);
      expect(res.status, email).toBe(400);
    }
    const res = await post("/settings/delete", { email: OTHER }, jar);
    expect(await res.text()).toContain("That is not the e-mail address of this account: nothing was deleted.");
    expect(await footprint(MIA)).toEqual(before);
    expect(await count("SELECT 1 FROM suppressed_emails")).toBe(0);
    expect((await get("/api/auth/user", jar)).status).toBe(200);
  });

  it("refuses the signed-out (401) and a cross-site post (403), erasing nothing", async () => {
    const { jar } = await seedMember(MIA, "Mia Park");
    const before = await footprint(MIA);
    expect((await post("/settings/delete", { email: MIA })).status).toBe(401);
    expect((await post("/settings/delete", { email: MIA }, jar, { Origin: "https://evil.example" })).status).toBe(403);
    expect((await post("/settings/delete", { email: MIA }, jar, { Origin: "null" })).status).toBe(403);
    expect(await footprint(MIA)).toEqual(before);
  });

  it("erases an unverified member's account but not the records filed under the address, and suppresses nothing", async () => {
    const { jar, userId } = await seedMember(MIA, "Mia Park");
    await env.DB.prepare("UPDATE users SET email_verified = 0 WHERE id = ?").bind(userId).run();
    expect((await post("/settings/delete", { email: MIA }, jar)).status).toBe(302);
    expect(await footprint(MIA)).toMatchObject({ users: 0, sessions: 0, leads: 1, mail: 1 });
    expect(await count("SELECT 1 FROM contact_messages WHERE user_id = ?", userId)).toBe(0);
    expect(await count("SELECT 1 FROM suppressed_emails")).toBe(0);
  });
});

describe("erasePerson (the admin's Delete)", () => {
  it("erases everything under the address and returns a summary", async () => {
    await seedMember(MIA, "Mia Park");
    const summary = await erasePerson(env, "Mia@Example.com", { actor: "admin:test" });
    expect(summary).toEqual({ member: true, sessions: 2, lead: true, messages: 2, emails: 1, suppressed: true });
    expect(await footprint(MIA)).toEqual({ users: 0, sessions: 0, leads: 0, tokens: 0, messages: 0, mail: 0 });
    // A lead without a member account: the same, and a second erasure finds nothing.
    expect((await postJson(signup({ email: OTHER }))).status).toBe(201);
    expect(await erasePerson(env, OTHER, { actor: "admin:test" })).toEqual({
      member: false,
      sessions: 0,
      lead: true,
      messages: 0,
      emails: 1,
      suppressed: true,
    });
    expect(await erasePerson(env, OTHER, { actor: "admin:test" })).toEqual({
      member: false,
      sessions: 0,
      lead: false,
      messages: 0,
      emails: 0,
      suppressed: true,
    });
    expect(await count("SELECT 1 FROM suppressed_emails")).toBe(2);
  });
});

describe("Export this person (POST /admin/people/export)", () => {
  it("answers an admin the JSON download of the address", async () => {
    await seedMember(MIA, "Mia Park");
    const { jar } = await signIn("admin@example.com");
    const res = await post("/admin/people/export", { email: " Mia@Example.com" }, jar);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="afx-person-\d{4}-\d\d-\d\d\.json"$/);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    const doc = (await res.json()) as PersonalDataExport;
    expect(doc.email).toBe(MIA);
    expect(doc.memberAccounts).toHaveLength(1);
    expect(doc.newsletter).toHaveLength(1);
  });

  it("refuses a bad address (400), members (403), the signed-out (401) and cross-site posts (403)", async () => {
    await seedMember(MIA, "Mia Park");
    const admin = await signIn("admin@example.com");
    const bad = await post("/admin/people/export", { email: "not-an-address" }, admin.jar);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ message: "email must be an e-mail address" });
    expect((await post("/admin/people/export", {}, admin.jar)).status).toBe(400);
    const member = await signIn(OTHER);
    const refused = await post("/admin/people/export", { email: MIA }, member.jar);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ message: "Admin access required" });
    expect((await post("/admin/people/export", { email: MIA })).status).toBe(401);
    const cross = await post("/admin/people/export", { email: MIA }, admin.jar, { Origin: "https://evil.example" });
    expect(cross.status).toBe(403);
    expect(cross.headers.get("Content-Disposition")).toBeNull();
  });
});

it("Settings offers both, as real forms", async () => {
  const { jar } = await seedMember(MIA, "Mia Park");
  const html = await (await get("/settings", jar)).text();
  expect(html).toMatch(/<form id="download-my-data" method="post" action="\/settings\/data"/);
  expect(html).toMatch(/<a[^>]*href="\/settings\/delete"[^>]*>Delete Account<\/a>/);
});
