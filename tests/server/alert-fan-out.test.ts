// An alert's fan-out is the same work per invocation for any audience (docs/decisions/126): the
// publish's invocation queues CHUNKS_PER_RUN chunks and hands the rest on through the mail queue,
// whose consumer goes on in its own invocation to the end; the Cron Trigger, with nothing to hand
// on to, does as much each minute. Every subscriber gets one mail.
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import worker from "../../worker/background";
import { alertMailKind, CHUNKS_PER_RUN, fanOutAlerts, startAlert } from "~/features/alerts/alerts.server";
import { withBindings } from "~/utils/config.server";
import { batch, getDb } from "~/utils/db.server";

/** One invocation's share: the chunks of 50 it queues before handing on. */
const PER_RUN = CHUNKS_PER_RUN * 50;
const SUBSCRIBERS = PER_RUN + 5;

beforeEach(async () => {
  await env.DB.batch([
    env.DB.prepare("DELETE FROM leads"),
    env.DB.prepare("DELETE FROM alert_sends"),
    env.DB.prepare("DELETE FROM mail_outbox"),
  ]);
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
     INSERT INTO leads (email, first_name, source, subscribed_at, status, topic)
     SELECT 'investor' || i || '@afx.test', 'Ivy', 'settings', ?2, 'confirmed', 'alerts' FROM n`,
  )
    .bind(SUBSCRIBERS, Date.now())
    .run();
  await batch(getDb(env), [
    startAlert(
      { kind: "news", id: "7", title: "Results", summary: "Up.", url: "https://afx.test/news/7", venture: null },
      Date.now(),
    ),
  ]);
});

const mailed = async () =>
  (await env.DB.prepare("SELECT COUNT(DISTINCT recipient) AS n, COUNT(*) AS all_ FROM mail_outbox WHERE kind = ?")
    .bind(alertMailKind("news", "7"))
    .first<{ n: number; all_: number }>()) ?? { n: 0, all_: 0 };

const fannedOut = async () =>
  (
    await env.DB.prepare("SELECT fanned_out_at FROM alert_sends WHERE item_id = '7'").first<{
      fanned_out_at: number | null;
    }>()
  )?.fanned_out_at ?? null;

/** The env with a mail queue that records what is sent to it. */
function recordingQueue() {
  const handedOn: unknown[] = [];
  const announced: unknown[] = [];
  const queue = {
    send: async (body: unknown) => void handedOn.push(body),
    sendBatch: async (messages: { body: unknown }[]) => void announced.push(...messages.map((m) => m.body)),
  };
  return { env: withBindings(env, { MAIL_QUEUE: queue as unknown as Env["MAIL_QUEUE"] }), handedOn, announced };
}

describe("an alert's fan-out at any size", () => {
  it("the publish's invocation queues its share and hands the rest on; the consumer finishes it", async () => {
    const { env: queued, handedOn, announced } = recordingQueue();
    const pending: Promise<unknown>[] = [];
    expect(await fanOutAlerts(queued, { waitUntil: (p) => void pending.push(p) })).toBe(PER_RUN);
    await Promise.all(pending);
    expect(announced).toHaveLength(PER_RUN);
    expect(await fannedOut()).toBeNull();
    expect(handedOn).toHaveLength(1);
    const [job] = handedOn as { fanOut: { kind: string; itemId: string; after: number } }[];
    expect(job!.fanOut).toMatchObject({ kind: "news", itemId: "7" });

    const messages = createMessageBatch("afx-mail", [{ id: "f1", timestamp: new Date(), attempts: 1, body: job }]);
    await worker.queue(messages, queued);
    expect((await getQueueResult(messages, createExecutionContext())).explicitAcks).toEqual(["f1"]);
    expect(announced).toHaveLength(SUBSCRIBERS);
    expect(handedOn).toHaveLength(1); // nothing left to hand on
    expect(await fannedOut()).not.toBeNull();
    expect(await mailed()).toEqual({ n: SUBSCRIBERS, all_: SUBSCRIBERS });
  });

  it("the Cron Trigger's run (no context) does its share and leaves the rest to the next minute", async () => {
    const { env: queued, handedOn } = recordingQueue();
    expect(await fanOutAlerts(queued)).toBe(PER_RUN);
    expect(handedOn).toEqual([]);
    expect(await fannedOut()).toBeNull();
    expect(await fanOutAlerts(queued)).toBe(5);
    expect(await fannedOut()).not.toBeNull();
    expect(await mailed()).toEqual({ n: SUBSCRIBERS, all_: SUBSCRIBERS });
  });
});
