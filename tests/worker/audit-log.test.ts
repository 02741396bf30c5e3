// The audit log (decision 035): exports are audited (the person export without the address, the
// leads CSV with its filters), an admin's delete writes its entry in the erasure's own batch, and the
// contact inbox's open/answered toggle is audited beside its change.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { setMessageStatus } from "~/features/contact/messages.server";
import { adminDelete, getLead } from "~/features/leads/lead-actions.server";
import { get, Jar, ORIGIN, signIn } from "./auth-helpers";
import { getDb } from "~/utils/db.server";

/** A browser's form post names its Host and Origin (Remix compares them on page actions). */
const HOST = new URL(ORIGIN).host;

beforeEach(async () => {
  await env.DB.batch(
    ["rate_limits", "audit_log", "mail_outbox", "contact_messages", "leads", "suppressed_emails"].map((t) =>
      env.DB.prepare(`DELETE FROM ${t}`),
    ),
  );
});

describe("exports are audited, and a delete is audited in its erasure's batch", () => {
  const post = (path: string, fields: Record<string, string>, jar: Jar) =>
    get(path, jar, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN, Host: HOST },
      body: new URLSearchParams(fields).toString(),
    });

  it("Export this person writes an audit entry without the address", async () => {
    const { jar } = await signIn("admin@example.com");
    const res = await post("/admin/people/export", { email: "Quinn@Example.com" }, jar);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const { results } = await env.DB.prepare("SELECT actor, action, target FROM audit_log").all();
    expect(results).toEqual([{ actor: "admin@example.com", action: "person.export", target: "q***@example.com" }]);
  });

  it("the leads CSV export writes an audit entry with its filters", async () => {
    await env.DB.prepare(
      "INSERT INTO leads (email, first_name, source, subscribed_at, status) VALUES ('csv@example.com', 'C', 'footer', ?, 'confirmed')",
    )
      .bind(Date.now())
      .run();
    const { jar } = await signIn("admin@example.com");
    const res = await get("/admin/leads.csv?source=footer&q=csv%40example.com", jar);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("csv@example.com");
    const { results } = await env.DB.prepare("SELECT actor, action, target, detail FROM audit_log").all<
      Record<string, string>
    >();
    expect(results).toEqual([
      {
        actor: "admin@example.com",
        action: "leads.export",
        target: "leads CSV",
        detail: expect.stringContaining("source=footer"),
      },
    ]);
    // The search may be an address: the audit log keeps only that there was one.
    expect(JSON.stringify(results)).not.toContain("csv@");
  });

  it("a delete whose audit entry cannot be written erases nothing", async () => {
    await env.DB.prepare(
      "INSERT INTO leads (email, first_name, source, subscribed_at, status) VALUES ('kept@example.com', 'K', 'footer', ?, 'confirmed')",
    )
      .bind(Date.now())
      .run();
    const lead = (await getLead(
      getDb(env),
      (await env.DB.prepare("SELECT id FROM leads WHERE email = 'kept@example.com'").first<{ id: number }>())!.id,
    ))!;
    await env.DB.prepare(
      "CREATE TRIGGER audit_down BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'audit log unavailable'); END",
    ).run();
    try {
      await expect(adminDelete(env, lead, "admin@example.com")).rejects.toThrow(/audit log unavailable/);
    } finally {
      await env.DB.prepare("DROP TRIGGER audit_down").run();
    }
    expect(await env.DB.prepare("SELECT email FROM leads WHERE id = ?").bind(lead.id).first()).toEqual({
      email: "kept@example.com",
    });
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM suppressed_emails").first("n")).toBe(0);
    // And when it can, the entry says what went.
    await adminDelete(env, lead, "admin@example.com");
    expect(
      await env.DB.prepare("SELECT action, detail FROM audit_log")
        .all()
        .then((r) => r.results),
    ).toEqual([{ action: "lead.delete", detail: "was confirmed; erased lead" }]);
  });
});

describe("the contact inbox's toggle is audited", () => {
  it("marking a message answered, then open, writes one entry each; an unknown message writes none", async () => {
    const { id } = (await env.DB.prepare(
      "INSERT INTO contact_messages (name, email, subject, message, created_at) VALUES ('Ada', 'ada@example.com', 'Hi', 'Hello', ?) RETURNING id",
    )
      .bind(Date.now())
      .first<{ id: number }>())!;
    expect(await setMessageStatus(getDb(env), id, "answered", "admin@example.com")).toBe(true);
    expect(await setMessageStatus(getDb(env), id, "open", "admin@example.com")).toBe(true);
    expect(await setMessageStatus(getDb(env), id + 1000, "answered", "admin@example.com")).toBe(false);
    const { results } = await env.DB.prepare("SELECT actor, action, target FROM audit_log ORDER BY id").all();
    expect(results).toEqual([
      { actor: "admin@example.com", action: "message.answered", target: `message #${id}` },
      { actor: "admin@example.com", action: "message.open", target: `message #${id}` },
    ]);
  });
});
