/**
 * The suppression list (docs/decisions/019-personal-data.md): what an erasure, or a "this wasn't
 * me" from a confirmation e-mail, keeps so that the address is never mailed or silently re-added,
 * without keeping the address. Each entry is a keyed hash of the folded address (address-key.server.ts:
 * `victim+1@` is `victim@`) under the suppression key of MAIL_SECRET, with that key's id; a plain
 * SHA-256 of an e-mail address would be reversed by trying a list of addresses, the keyed one
 * cannot be without the secret.
 */
import { inArray, sql } from "drizzle-orm";
import { suppressedEmails } from "~/db/schema";
import { addressHashes } from "~/features/privacy/address-key.server";
import { getDb, statement } from "~/utils/db.server";

// Entries written before issue 25 (the raw secret, the address as typed) are still found.
const lookup = async (env: Env, email: string) => (await addressHashes(env, "suppressed-email", email, { legacy: true })).map((h) => h.hash);

/** The INSERT that adds `email` to the list, for the caller's batch; a repeat keeps the first entry. */
export async function suppressStatement(env: Env, email: string, reason: string, now = Date.now()): Promise<D1PreparedStatement> {
  const [newest] = await addressHashes(env, "suppressed-email", email);
  return statement(
    env.DB,
    getDb(env).insert(suppressedEmails).values({ emailHash: newest!.hash, keyId: newest!.keyId, reason, createdAt: now }).onConflictDoNothing(),
  );
}

/** Whether `email` (any spelling of its mailbox) is on the list: no e-mail goes to it and no signup re-adds it. */
export async function isSuppressed(env: Env, email: string): Promise<boolean> {
  const all = await lookup(env, email);
  const row = await getDb(env).select({ one: sql`1` }).from(suppressedEmails).where(inArray(suppressedEmails.emailHash, all)).limit(1).get();
  return row !== undefined;
}

/** Takes `email` off the list: only when its verified owner asks to be mailed again. */
export async function liftSuppression(env: Env, email: string): Promise<void> {
  const all = await lookup(env, email);
  await getDb(env).delete(suppressedEmails).where(inArray(suppressedEmails.emailHash, all));
}
