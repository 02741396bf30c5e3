// The jobs of the Cron Trigger (wrangler.toml [triggers], every minute): each runs alone, so one
// that fails does not stop the others, and each logs its own failure.
import { deliverDueMail, pruneMail } from "../app/features/mail/outbox.server";
import { sweepExpired } from "../app/features/leads/subscription.server";
import { log } from "../app/utils/log.server";

export async function runScheduledJobs(env: Env, now = Date.now()) {
  const [mail, prunedMail, newsletter] = await Promise.all([
    job("mail delivery", () => deliverDueMail(env, now)),
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
