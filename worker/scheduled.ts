// The jobs of the Cron Trigger (wrangler.toml [triggers], every minute): each runs alone, so one
// that fails does not stop the others, and each logs its own failure.
import { deliverDueMail, pruneMail, SAFETY_NET_AFTER_MS } from "../app/features/mail/outbox.server";
import { sweepExpired } from "../app/features/leads/subscription.server";
import { log } from "../app/utils/log.server";

/** `mail: false` leaves the outbox as it is (production with a bad mail setting: worker/server.ts). */
export async function runScheduledJobs(env: Env, now = Date.now(), { mail: send = true } = {}) {
  const [mail, prunedMail, newsletter] = await Promise.all([
    // The safety net: what the mail queue has not sent a while after it was due.
    send ? job("mail delivery", () => deliverDueMail(env, now, { olderThanMs: SAFETY_NET_AFTER_MS })) : null,
    job("mail pruning", () => pruneMail(env.DB, now)),
    job("newsletter expiry", () => sweepExpired(env.DB, now)),
  ]);
  return { mail, prunedMail, newsletter };
}

async function job<T>(name: string, run: () => Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch (error) {
    log("error", `[scheduled] ${name} failed`, { error });
    return null;
  }
}
