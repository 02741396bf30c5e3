import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { ROOT } from "../../scripts/lib/config.mjs";
import { triggerScheduled } from "../../scripts/lib/local-worker.mjs";
import { listMail, waitForMail } from "../fixtures/inbox";

// The wiring of tests/e2e/global-setup.ts as `npm start` has it: wrangler dev reaches the local
// SMTP server (SMTP_HOST/SMTP_PORT passed like OAUTH_ISSUER) and runs the Cron Trigger's handler
// on GET /__scheduled (--test-scheduled). The message is put in the outbox directly: the flows
// that queue mail have their own tests.
function queueInLocalD1(to: string, subject: string) {
  const now = Date.now();
  const sql = `INSERT INTO mail_outbox (kind, recipient, subject, text_body, html_body, headers, next_attempt_at, created_at)
    VALUES ('e2e-check', '${to}', '${subject}', 'Plain part', '<p>HTML part</p>', '{"List-Unsubscribe-Post":"List-Unsubscribe=One-Click"}', ${now}, ${now})`;
  const result = spawnSync(
    resolve(ROOT, "node_modules/.bin/wrangler"),
    ["d1", "execute", "DB", "--local", "--persist-to", inject("persistTo"), "--command", sql],
    { cwd: ROOT, env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" }, stdio: ["ignore", "ignore", "pipe"] },
  );
  if (result.status !== 0) throw new Error(`wrangler d1 execute failed: ${result.stderr}`);
}

describe("mail under wrangler dev", () => {
  it("the scheduled job delivers a queued message to the local inbox, once", async () => {
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
});
