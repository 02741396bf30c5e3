/**
 * Signups kept while D1 is down (docs/decisions/121-outages.md): POST /api/leads sends the signup
 * it could not store to the signup queue and answers 202; the queue's consumer writes it once D1
 * answers, with the consent record and time of the request (not of the write), and queues its
 * confirmation e-mail, as a signup made then would have.
 *
 * Once: the write is the signup's own (signup-store.server.ts), which leaves a pending or
 * confirmed address as it is, and the confirmation is queued only when none was in the last
 * RESEND_AFTER_MS (subscription.server.ts). A message delivered twice (its acknowledgement lost)
 * therefore stores one lead and sends one e-mail.
 */
import { sql } from "drizzle-orm";
import type { SignupRecord } from "~/features/leads/signup-store.server";
import { signupWrite } from "~/features/leads/signup-store.server";
import { queueConfirmation } from "~/features/leads/subscription.server";
import { announceMail } from "~/features/mail/outbox.server";
import { isSiteAddress } from "~/features/mail/site-addresses.server";
import { isSuppressed } from "~/features/privacy/suppression.server";
import { batch, getDb } from "~/utils/db.server";
import { log } from "~/utils/log.server";

/** A kept signup as the queue carries it: the record, its one date (subscribedAt) in ms. */
export interface KeptSignup {
  record: Omit<SignupRecord, "subscribedAt" | "handedOffAt"> & { subscribedAt: number };
}

/** The queue's name ends so, locally and in production (wrangler.toml), its dead letters' too. */
export const isSignupQueue = (queue: string) => /^afx-signups(?:-|$)/.test(queue);

/** Sends a signup D1 could not take to the queue. Rejects when the queue cannot take it either. */
export async function keepSignup(env: Env, record: SignupRecord): Promise<void> {
  const { subscribedAt, handedOffAt: _, ...rest } = record;
  const body: KeptSignup = { record: { ...rest, subscribedAt: subscribedAt.getTime() } };
  await env.SIGNUP_QUEUE.send(body, { contentType: "json" });
}

/**
 * The delay before a kept signup is tried again: 5 s, doubling per attempt, at most 5 minutes; the
 * queue's 100 retries, then its dead-letter queue's as many, keep it for more than 16 hours.
 */
export const retryDelayS = (attempts: number) => Math.min(5 * 2 ** Math.max(0, attempts - 1), 300);

/** Writes one kept signup and queues its confirmation (throws while D1 is down). */
export async function storeKeptSignup(env: Env, ctx: Pick<ExecutionContext, "waitUntil">, kept: KeptSignup) {
  const record: SignupRecord = { ...kept.record, subscribedAt: new Date(kept.record.subscribedAt), handedOffAt: null };
  // What the request could not check while D1 was down: an erased address and the site's own.
  if (isSiteAddress(env, record.email) || (await isSuppressed(env, record.email))) return;
  const db = getDb(env);
  const store = signupWrite(db, record);
  const { lead } = store.outcome(await batch(db, store.statements(sql`1`)));
  if (lead?.status !== "pending") return;
  const now = Date.now();
  const mailId = await queueConfirmation(env, { id: lead.id, email: lead.email, topic: record.topic }, now);
  if (mailId !== null) announceMail(env, ctx, [mailId]);
}

/** The signup queue's consumer: each message stored, or retried later while D1 is still down. */
export async function consumeKeptSignups(
  batchOf: MessageBatch<KeptSignup>,
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
) {
  for (const message of batchOf.messages) {
    try {
      await storeKeptSignup(env, ctx, message.body);
      message.ack();
    } catch (error) {
      log("warn", "[newsletter] kept signup not stored yet; retried", { attempts: message.attempts, error });
      message.retry({ delaySeconds: retryDelayS(message.attempts) });
    }
  }
}
