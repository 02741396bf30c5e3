// What the worker does without a request: the mail queues' consumer and the Cron Trigger. Kept
// apart from server.ts (which imports the server build) so that a suite without a build can run
// the same consumer: tests/server/ points its worker at this module.
import { log } from "../app/utils/log.server";
import { runScheduledJobs } from "./scheduled";
import { mailProblems, servingProblems } from "./production-config";
import { deliverQueued, type MailJob } from "../app/features/mail/outbox.server";
import { consumeMailEvents, isMailEventsQueue } from "../app/features/mail/events.server";
import { consumeKeptSignups, isSignupQueue, type KeptSignup } from "../app/features/leads/signup-queue.server";
import { watchedBindings } from "./local-faults";
import { continueFanOut, isFanOutJob } from "../app/features/alerts/alerts.server";

let mailLogged = false;

/**
 * Whether production may send mail now. A bad mail setting stops mail, not the site: the outbox
 * keeps every message (queued, unclaimed) until a deploy fixes the setting, and the reason is
 * logged once per isolate rather than at every queue batch and every minute's Cron Trigger.
 */
function mayMail(env: Env): boolean {
  const problems = mailProblems(env);
  if (!problems.length) return true;
  if (!mailLogged) log("error", `[config] mail waits in the outbox: ${problems.join("; ")}`, { problems });
  mailLogged = true;
  return false;
}

export const background = {
  // The mail queue's consumer, and its dead-letter queue's: a message that exhausted the queue's
  // retries is only logged, its outbox row stays queued and the Cron Trigger's safety net goes on.
  // The events queue carries the Email Service's delivery events (bounces, complaints…).
  async queue(batch, platformEnv, ctx?: ExecutionContext) {
    // The local fault switch fails D1 and R2 here too (worker/local-faults.ts; never in production).
    const { env } = watchedBindings(platformEnv);
    // Signups kept while D1 was down, and their dead letters: stored once D1 answers.
    if (isSignupQueue(batch.queue)) {
      if (servingProblems(env).length) batch.retryAll({ delaySeconds: 300 });
      else {
        // Tests call the consumer without a context: what it hands on is awaited here instead.
        const pending: Promise<unknown>[] = [];
        await consumeKeptSignups(batch as MessageBatch<KeptSignup>, env, ctx ?? { waitUntil: (p) => pending.push(p) });
        await Promise.allSettled(pending);
      }
      return;
    }
    if (batch.queue.endsWith("-dlq")) {
      log("warn", "[mail] dead-lettered; the Cron Trigger keeps trying", { count: batch.messages.length });
      batch.ackAll();
      return;
    }
    if (servingProblems(env).length) {
      batch.retryAll({ delaySeconds: 300 });
      return;
    }
    if (isMailEventsQueue(batch.queue)) {
      await consumeMailEvents(batch, env);
      return;
    }
    // Acknowledged, not retried: the rows stay queued in the outbox and the Cron Trigger's safety
    // net sends them once a deploy fixes the mail setting.
    if (!mayMail(env)) {
      batch.ackAll();
      return;
    }
    // An alert's fan-out handed on (app/features/alerts/alerts.server.ts): its next chunks, in
    // this invocation; the mails beside it are sent as ever.
    const mails: Message<MailJob>[] = [];
    const pending: Promise<unknown>[] = [];
    for (const message of batch.messages) {
      if (!isFanOutJob(message.body)) {
        mails.push(message as Message<MailJob>);
        continue;
      }
      try {
        await continueFanOut(env, ctx ?? { waitUntil: (p) => void pending.push(p) }, message.body.fanOut);
        message.ack();
      } catch (error) {
        log("error", "[alerts] fan-out failed; the queue retries it", { error });
        message.retry();
      }
    }
    await Promise.allSettled(pending);
    if (mails.length) await deliverQueued(mails, env);
  },

  // The Cron Trigger. A production deploy that refuses to serve (above) sends no mail either; one
  // with a bad mail setting runs every job but mail delivery.
  async scheduled(_controller, platformEnv) {
    const { env } = watchedBindings(platformEnv);
    const problems = servingProblems(env);
    if (problems.length) {
      log("error", `[config] scheduled jobs skipped: ${problems.join("; ")}`, { problems });
      return;
    }
    // The real clock, not `scheduledTime` (worker/scheduled.ts says why).
    await runScheduledJobs(env, undefined, { mail: mayMail(env) });
  },
} satisfies ExportedHandler<Env>;

export default background;
