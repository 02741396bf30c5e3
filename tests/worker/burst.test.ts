// No hard global refusal (docs/decisions/059): a visitor within their own network's limit is never
// refused because others filled a block's share or the form's ceiling. Past them a signup or a
// Help message is stored and answered as usual; its mail is paced (the confirmation waits in the
// outbox for the Cron Trigger, the Help notifications become one digest) and the dashboard shows
// the burst. Before issue 43, ten /48s or ten /24s filling the ceiling refused everyone else.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { beforeEach, describe, expect, inject, it } from "vitest";
import worker from "../../worker/server";
import { CONFIRMATION_SUBJECT } from "~/features/leads/confirmation-mail.server";
import { deliverDueMail, SAFETY_NET_AFTER_MS } from "~/features/mail/outbox.server";
import { waitForMail } from "../fixtures/inbox";
import { signIn } from "./auth-helpers";
import { inOneWindow, ORIGIN } from "./leads-helpers";

const inbox = inject("inboxURL");
// One attempt per network, a ceiling of 20: a block's share is 2, so ten blocks fill it.
const LIMIT = { LEADS_RATE_LIMIT: "1/600/20" } as Partial<Env>;

type Incoming = Parameters<typeof worker.fetch>[0];
/** The whole worker with the burst's limit. */
async function fetchWith(request: Request) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(request as Incoming, { ...env, ...LIMIT } as Env, ctx);
  const body = await res.text();
  await waitOnExecutionContext(ctx);
  return { res, body };
}

const signupFrom = (ip: string, email: string) =>
  fetchWith(
    new Request(`${ORIGIN}/api/leads`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": ip },
      body: JSON.stringify({ email, firstName: "Flo" }),
    }),
  );

const helpFrom = (ip: string, subject: string) =>
  fetchWith(
    new Request(`${ORIGIN}/help`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": ip },
      body: new URLSearchParams({ name: "Flo", email: "flo@example.com", subject, message: "Hi" }).toString(),
    }),
  );

/** Twelve IPv6 /48s and twelve IPv4 /24s, two networks each: every block past its share. */
const FLOOD = Array.from({ length: 12 }, (_, b) => [
  `2001:db8:${b + 1}:1::1`,
  `2001:db8:${b + 1}:2::1`,
  `198.18.${b}.1`,
  `198.18.${b}.2`,
]).flat();

const clear = () =>
  env.DB.batch(
    ["rate_limits", "mail_outbox", "newsletter_tokens", "confirmation_counts", "contact_messages", "leads"].map((t) =>
      env.DB.prepare(`DELETE FROM ${t}`),
    ),
  );
beforeEach(clear);

describe("a burst past the ceiling refuses nobody", () => {
  it("twelve /48s and twelve /24s fill the ceiling; another visitor's signup is answered 201 and their mail sent", async () => {
    await inOneWindow(
      async () => {
        const tag = crypto.randomUUID().slice(0, 8);
        for (const [i, ip] of FLOOD.entries())
          expect((await signupFrom(ip, `flood-${i}-${tag}@example.com`)).res.status, ip).toBe(201);
        const ceiling = await env.DB.prepare("SELECT count FROM rate_limits WHERE key = '*signup'").first<{
          count: number;
        }>();
        expect(ceiling!.count).toBeGreaterThan(20);

        const visitor = `visitor-${tag}@example.com`;
        const { res, body } = await signupFrom("203.0.113.77", visitor);
        expect(res.status).toBe(201);
        expect(JSON.parse(body)).toMatchObject({ email: visitor });
        // Stored as usual; the confirmation waits in the outbox, unannounced, for its paced time.
        expect(await env.DB.prepare("SELECT status FROM leads WHERE email = ?").bind(visitor).first()).toEqual({
          status: "pending",
        });
        const mail = await env.DB.prepare(
          "SELECT status, attempts, next_attempt_at FROM mail_outbox WHERE recipient = ?",
        )
          .bind(visitor)
          .first<{ status: string; attempts: number; next_attempt_at: number }>();
        expect(mail).toMatchObject({ status: "queued", attempts: 0 });
        expect(mail!.next_attempt_at).toBeGreaterThan(Date.now());

        // The dashboard shows the burst.
        const { jar } = await signIn("admin@example.com");
        const dashboard = await fetchWith(
          new Request(`${ORIGIN}/admin/leads`, { headers: { Cookie: jar.header(), Accept: "text/html" } }),
        );
        expect(dashboard.body).toContain("The site is under a burst");
        expect(dashboard.body).toMatch(/data-testid="burst-signup">\d/);

        // The Cron Trigger sends it once its time has come.
        await deliverDueMail(env, mail!.next_attempt_at + SAFETY_NET_AFTER_MS, { olderThanMs: SAFETY_NET_AFTER_MS });
        await waitForMail(inbox, { to: visitor, subject: CONFIRMATION_SUBJECT });
      },
      { reset: clear },
    );
  }, 60_000);

  it("Help messages past the ceiling are stored and answered; the contact inbox gets one digest for them", async () => {
    await inOneWindow(
      async () => {
        const tag = crypto.randomUUID().slice(0, 8);
        const ips = Array.from({ length: 25 }, (_, i) => `198.19.${i}.1`);
        for (const [i, ip] of ips.entries()) {
          const { res, body } = await helpFrom(ip, `Burst ${tag} ${i}`);
          expect(res.status, ip).toBe(200);
          expect(body).toContain("Thank you");
        }
        const stored = await env.DB.prepare("SELECT COUNT(*) AS n FROM contact_messages").first<{ n: number }>();
        expect(stored!.n).toBe(25);
        const kinds = await env.DB.prepare(
          "SELECT kind, COUNT(*) AS n FROM mail_outbox GROUP BY kind ORDER BY kind",
        ).all<{ kind: string; n: number }>();
        expect(kinds.results).toEqual([
          { kind: "contact-digest", n: 1 },
          { kind: "contact-notification", n: 20 },
        ]);
      },
      { reset: clear },
    );
  }, 60_000);
});
