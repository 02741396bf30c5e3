// Suppression that holds for every spelling of a mailbox (issue 33, docs/decisions/060): erasing
// jane@gmail.com also covers the list's jane+afx@gmail.com and j.ane@gmail.com (the folding the
// signup uses), which the leads CSV, the person export and the mail then leave out; and the
// MAIL_SECRET key roles: a retired key finds suppression entries and verifies no link.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, inject, it, vi } from "vitest";
import { sql } from "drizzle-orm";
import { leadsCsvStream } from "~/features/leads/csv.server";
import { readUnsubscribeToken, unsubscribeToken } from "~/features/leads/subscription.server";
import { deliverDueMail, queueMail } from "~/features/mail/outbox.server";
import { foldEmail, foldEmailSql } from "~/features/privacy/address-key.server";
import { erasePerson } from "~/features/privacy/erase.server";
import { exportPerson } from "~/features/privacy/export.server";
import { isSuppressed, liftSuppression, suppressStatements } from "~/features/privacy/suppression.server";
import { configProblems } from "../../worker/production-config";
import { getConfig } from "~/utils/config.server";
import { batch, getDb } from "~/utils/db.server";
import { listMail } from "../fixtures/inbox";
import { GOOD_PRODUCTION_VARS } from "../fixtures/production-vars";
import { insertLeads } from "../worker/leads-helpers";

const inbox = inject("inboxURL");
const withVars = (vars: Record<string, string>) => ({ ...env, ...vars }) as Env;
const csv = async () => new Response(leadsCsvStream(getDb(env))).text();

beforeEach(async () => {
  await env.DB.batch([
    env.DB.prepare("DELETE FROM leads"),
    env.DB.prepare("DELETE FROM suppressed_emails"),
    env.DB.prepare("DELETE FROM mail_outbox"),
  ]);
});

describe("suppression holds for every spelling of the mailbox", () => {
  it("the SQL fold finds the same mailbox as foldEmail", async () => {
    const spellings = [
      "jane@gmail.com",
      "j.ane+afx@gmail.com",
      "jane@googlemail.com",
      "j.a.n.e@googlemail.com",
      "a.b+c+d@example.com",
      "+tag@example.com",
      "...@gmail.com",
      "x.y@example.com",
      "p+@afx.test",
    ];
    for (const spelling of spellings) {
      const row = await getDb(env).get<{ f: string }>(sql`SELECT ${foldEmailSql(sql`${spelling}`)} AS f`);
      expect(row.f, spelling).toBe(foldEmail(spelling));
    }
  });

  it("erasing jane@gmail.com suppresses the list's jane+afx@ and j.ane@: out of the CSV, the person export and the mail, and not erased", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    await insertLeads([
      { email: "jane@gmail.com" },
      { email: "jane+afx@gmail.com" },
      { email: "j.ane@googlemail.com" },
      { email: "janet@gmail.com" },
    ]);
    const queued = {
      kind: "contact-notification",
      to: "jane+afx@gmail.com",
      subject: "Hello",
      text: "Hi",
      html: "<p>Hi</p>",
    };
    await batch(getDb(env), [queueMail(getDb(env), queued)]);

    const summary = await erasePerson(env, "jane@gmail.com", { actor: "admin:test" });
    expect(summary).toMatchObject({ lead: true, suppressed: true });

    // The other spellings stay stored (they may be someone's own record) and are marked.
    const { results } = await env.DB.prepare(
      "SELECT email, suppressed_at IS NOT NULL AS suppressed FROM leads ORDER BY email",
    ).all();
    expect(results).toEqual([
      { email: "j.ane@googlemail.com", suppressed: 1 },
      { email: "jane+afx@gmail.com", suppressed: 1 },
      { email: "janet@gmail.com", suppressed: 0 },
    ]);
    const file = await csv();
    expect(file).toContain("janet@gmail.com");
    expect(file).not.toMatch(/jane\+afx@gmail\.com|j\.ane@googlemail\.com/);
    expect((await exportPerson(getDb(env), "jane+afx@gmail.com")).newsletter).toEqual([]);
    expect((await exportPerson(getDb(env), "janet@gmail.com")).newsletter).toHaveLength(1);

    // The e-mail queued before the erasure is not sent, and not kept.
    expect(await deliverDueMail(env)).toEqual({ sent: 0, retried: 0, gaveUp: 0 });
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM mail_outbox").first("n")).toBe(0);
    expect(await listMail(inbox, { to: "jane+afx@gmail.com" })).toHaveLength(0);

    // Its verified owner subscribing again lifts the entry and the marks of the mailbox.
    await liftSuppression(env, "j.ane@gmail.com");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM leads WHERE suppressed_at IS NOT NULL").first("n")).toBe(0);
  });

  it("a 'this wasn't me' suppression marks the mailbox's other records too", async () => {
    await insertLeads([{ email: "sam+news@example.com" }, { email: "sam@example.com", status: "pending" }]);
    await batch(getDb(env), await suppressStatements(env, "sam@example.com", "not-me"));
    expect(await csv()).not.toContain("sam+news@example.com");
  });
});

describe("MAIL_SECRET key roles", () => {
  const RETIRED = { MAIL_SECRET: "the-new-mail-secret,retired:test-mail-secret,retired:test-session-secret" };

  it("a retired key verifies no unsubscribe link, and its suppression entries still suppress", async () => {
    const oldToken = await unsubscribeToken(env, 11);
    await batch(getDb(env), await suppressStatements(env, "leaked-key@example.com", "erased"));
    const retired = withVars(RETIRED);
    expect(await readUnsubscribeToken(retired, oldToken)).toBeNull();
    expect(await isSuppressed(retired, "leaked-key+1@example.com")).toBe(true);
    // New links are signed by the key in use, and verify.
    expect(await readUnsubscribeToken(retired, await unsubscribeToken(retired, 11))).toBe(11);
  });

  it("a retired value must come after one in use, and is checked like any other in production", () => {
    for (const value of ["retired:aaaa", "retired:aaaa,bbbb", "aaaa,retired:", "aaaa,retired:aaaa"]) {
      expect(() => getConfig(withVars({ MAIL_SECRET: value })), value).toThrow(/MAIL_SECRET/);
    }
    expect(getConfig(withVars(RETIRED))).toMatchObject({
      mailSecrets: ["the-new-mail-secret"],
      retiredMailSecrets: ["test-mail-secret", "test-session-secret"],
    });
    expect(
      configProblems(withVars({ ...GOOD_PRODUCTION_VARS, MAIL_SECRET: `${"n".repeat(40)},retired:short` })),
    ).toEqual([expect.stringMatching(/MAIL_SECRET is shorter than 32/)]);
  });
});
