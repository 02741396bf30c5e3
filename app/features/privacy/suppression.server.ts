/**
 * The suppression list (docs/decisions/019-personal-data.md): what an erasure keeps so that an
 * erased address is never mailed or silently re-added, without keeping the address. Each entry is
 * the HMAC of the normalised address under the newest SESSION_SECRET; a plain SHA-256 of an e-mail
 * address would be reversed by trying a list of addresses, the keyed one cannot be without the
 * secret. Lookups try every configured secret, as the unsubscribe links do, so a rotated-in secret
 * still finds entries made under the older ones while those stay listed.
 */
import { getConfig } from "~/utils/config.server";
import { hmacSign } from "~/utils/crypto.server";

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

const message = (email: string) => `suppressed-email:${normaliseEmail(email)}`;

/** The entry of `email` under each configured secret, newest first (the first is the one written). */
async function hashes(env: Env, email: string): Promise<string[]> {
  const secrets = getConfig(env).sessionSecrets;
  if (!secrets.length) throw new Error("SESSION_SECRET must be set to keep a suppression list");
  return Promise.all(secrets.map((s) => hmacSign(s, message(email))));
}

/** The INSERT that adds `email` to the list, for the caller's batch; a repeat keeps the first entry. */
export async function suppressStatement(env: Env, email: string, reason: string, now = Date.now()): Promise<D1PreparedStatement> {
  const [hash] = await hashes(env, email);
  return env.DB.prepare("INSERT OR IGNORE INTO suppressed_emails (email_hash, reason, created_at) VALUES (?1, ?2, ?3)").bind(hash, reason, now);
}

/** Whether `email` is on the list: no e-mail goes to it and no signup re-adds it. */
export async function isSuppressed(env: Env, email: string): Promise<boolean> {
  const all = await hashes(env, email);
  const row = await env.DB.prepare(`SELECT 1 FROM suppressed_emails WHERE email_hash IN (${all.map(() => "?").join(", ")}) LIMIT 1`)
    .bind(...all)
    .first();
  return row !== null;
}

/** Takes `email` off the list: only when its verified owner asks to be mailed again. */
export async function liftSuppression(env: Env, email: string): Promise<void> {
  const all = await hashes(env, email);
  await env.DB.prepare(`DELETE FROM suppressed_emails WHERE email_hash IN (${all.map(() => "?").join(", ")})`).bind(...all).run();
}
