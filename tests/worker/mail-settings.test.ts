// A bad mail setting stops mail, not the site (issue 26): in production with a placeholder SMTP
// host the pages and the newsletter signup still answer, every message waits in the outbox
// (neither the queue's consumer nor the Cron Trigger claims it), and the reason is logged once
// per isolate, not at every batch and every minute. Any other production problem still refuses.
import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  env,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { configProblems, mailProblems, servingProblems } from "../../worker/production-config";
import { GOOD_PRODUCTION_VARS } from "../fixtures/production-vars";
import { nextAddress, ORIGIN, signup } from "./leads-helpers";

// worker/server.ts logs a configuration problem once per isolate, and this suite's files share
// isolates (vitest.config.ts): this file asserts on that log, so it takes a copy of its own.
vi.resetModules();
const { default: worker } = await import("../../worker/server");

type Incoming = Parameters<typeof worker.fetch>[0];
const MAIL_LOG =
  /\[config\] mail waits in the outbox: SMTP_HOST is empty, loopback or an example host; MAIL_FROM is not a sender/;

/** Production, everything right but the mail provider and sender (today's placeholders). */
function productionWithBadMail() {
  const announced: { id: number }[] = [];
  const queue = {
    sendBatch: async (messages: { body: { id: number } }[]) => void announced.push(...messages.map((m) => m.body)),
  };
  const bad = {
    ...env,
    ...GOOD_PRODUCTION_VARS,
    SMTP_HOST: "smtp.example.com",
    MAIL_FROM: "AFX Holding Group <newsletter@example.com>",
    MAIL_QUEUE: queue,
  } as unknown as Env;
  return { bad, announced };
}

async function fetchWith(request: Request, vars: Env) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(request as Incoming, vars, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

const outbox = (id: number) =>
  env.DB.prepare("SELECT status, attempts, leased_until FROM mail_outbox WHERE id = ?").bind(id).first();

beforeEach(() => vi.restoreAllMocks());

describe("a bad mail setting in production", () => {
  it("is a mail problem only: the site's rules pass, and a site problem still refuses", () => {
    const { bad } = productionWithBadMail();
    expect(servingProblems(bad)).toEqual([]);
    expect(mailProblems(bad)).toEqual([expect.stringMatching(/^SMTP_HOST/), expect.stringMatching(/^MAIL_FROM/)]);
    expect(configProblems(bad)).toEqual(mailProblems(bad));
    expect(servingProblems({ ...bad, SESSION_SECRET: "short" })).toEqual([
      "SESSION_SECRET is shorter than 32 characters",
    ]);
    expect(mailProblems({ ...bad, ENVIRONMENT: "development" })).toEqual([]);
  });

  it("serves the pages and takes a signup; the message waits in the outbox, logged once for every batch and Cron run", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const { bad, announced } = productionWithBadMail();

    const home = await fetchWith(new Request(`${ORIGIN}/`), bad);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("AFX Holding Group");

    const joined = await fetchWith(
      new Request(`${ORIGIN}/api/leads`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "CF-Connecting-IP": nextAddress() },
        body: JSON.stringify(signup({ email: `mail-settings-${crypto.randomUUID()}@afx.test` })),
      }),
      bad,
    );
    expect(joined.status).toBe(201);
    // The confirmation was stored and announced to the queue, as always.
    expect(announced).toHaveLength(1);
    const id = announced[0]!.id;
    expect(await outbox(id)).toEqual({ status: "queued", attempts: 0, leased_until: 0 });

    // The queue's consumer acknowledges without claiming: the row stays queued, untouched.
    const batch = createMessageBatch("afx-mail", [{ id: "m1", timestamp: new Date(), attempts: 1, body: { id } }]);
    const ctx = createExecutionContext();
    await worker.queue(batch, bad);
    expect((await getQueueResult(batch, ctx)).ackAll).toBe(true);
    expect(await outbox(id)).toEqual({ status: "queued", attempts: 0, leased_until: 0 });

    // Two Cron runs long after the message was due (an hour passes in the row; the Cron Trigger
    // reads the real clock): still nothing claimed.
    await env.DB.prepare(
      "UPDATE mail_outbox SET next_attempt_at = next_attempt_at - ?, created_at = created_at - ? WHERE id = ?",
    )
      .bind(60 * 60_000, 60 * 60_000, id)
      .run();
    for (let run = 0; run < 2; run++) {
      await worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: "* * * * *" }), bad);
    }
    expect(await outbox(id)).toEqual({ status: "queued", attempts: 0, leased_until: 0 });

    const logged = errors.mock.calls
      .flat()
      .map(String)
      .filter((line) => MAIL_LOG.test(line));
    expect(logged).toHaveLength(1);
    expect(errors.mock.calls.flat().join(" ")).not.toMatch(/refusing to serve|scheduled jobs skipped/);
  });

  it("a production problem that is not mail still serves nothing", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { bad } = productionWithBadMail();
    const refused = await fetchWith(new Request(`${ORIGIN}/`), { ...bad, ADMIN_EMAILS: "admin@example.com" });
    expect(refused.status).toBe(503);
    expect(await refused.text()).toBe("This site is not configured yet.");
  });
});
