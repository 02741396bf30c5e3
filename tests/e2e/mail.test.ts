import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { ROOT } from "../../scripts/lib/config.mjs";
import { triggerScheduled } from "../../scripts/lib/local-worker.mjs";
import { listMail, waitForMail } from "../fixtures/inbox";

// The wiring of tests/e2e/global-setup.ts as `npm start` has it: wrangler dev reaches the local
// SMTP server (SMTP_HOST/SMTP_PORT passed like OAUTH_ISSUER) and runs the Cron Trigger's handler
// on GET /__scheduled (--test-scheduled), and runs the mail queue with its consumer. The safety
// net's message is put in the outbox directly, due 3 minutes ago and never announced: one the
// queue lost.
function queueInLocalD1(to: string, subject: string) {
  const now = Date.now() - 3 * 60_000;
  const sql = `INSERT INTO mail_outbox (kind, recipient, subject, text_body, html_body, headers, next_attempt_at, created_at)
    VALUES ('e2e-check', '${to}', '${subject}', 'Plain part', '<p>HTML part</p>', '{"List-Unsubscribe-Post":"List-Unsubscribe=One-Click"}', ${now}, ${now})`;
  const result = spawnSync(
    resolve(ROOT, "node_modules/.bin/wrangler"),
    ["d1", "execute", "DB", "--local", "--persist-to", inject("persistTo"), "--command", sql],
    {
      cwd: ROOT,
      env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  if (result.status !== 0) throw new Error(`wrangler d1 execute failed: ${result.stderr}`);
}

describe("mail under wrangler dev", () => {
  it("the scheduled job (the queue's safety net) delivers a message the queue lost to the local inbox, once", async () => {
    const to = `e2e-${Date.now().toString(36)}@afx.test`;
    queueInLocalD1(to, "Outbox check");
    await triggerScheduled(inject("baseURL"));
    const mail = await waitForMail(inject("inboxURL"), { to, subject: "Outbox check" });
    expect(mail.text.trim()).toBe("Plain part");
    expect(mail.html).toContain("HTML part");
    expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    await triggerScheduled(inject("baseURL"));
    expect(await listMail(inject("inboxURL"), { to })).toHaveLength(1);
  });

  it("a burst of signups: every confirmation e-mail reaches the inbox once, through the mail queue, with no Cron Trigger run", async () => {
    const run = Date.now().toString(36);
    const addresses = Array.from({ length: 40 }, (_, i) => `burst-${run}-${i}@afx.test`);
    const answers = await Promise.all(
      addresses.map((email) =>
        fetch(`${inject("baseURL")}/api/leads`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ email, firstName: "Burst", source: "e2e" }),
        }).then((r) => r.status),
      ),
    );
    expect(answers).toEqual(addresses.map(() => 201));
    for (const to of addresses)
      await waitForMail(inject("inboxURL"), { to, subject: /Confirm your subscription/ }, { timeoutMs: 30_000 });
    for (const to of addresses) expect(await listMail(inject("inboxURL"), { to })).toHaveLength(1);
  });
});
