/**
 * The suppression list (docs/decisions/019-personal-data.md): what an erasure, or a "this wasn't
 * me" from a confirmation e-mail, keeps so that the address is never mailed or silently re-added,
 * without keeping the address. Each entry is a keyed hash of the folded address (address-key.server.ts:
 * `victim+1@` is `victim@`) under the suppression key of MAIL_SECRET, with that key's id; a plain
 * SHA-256 of an e-mail address would be reversed by trying a list of addresses, the keyed one
 * cannot be without the secret. An entry holds for every spelling: the list's records of the same
 * folded mailbox are marked suppressed with it (the CSV and the person export leave them out), and
 * the mail checks the list again right before it sends (features/mail/outbox.server.ts).
 */
import { and, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { leads, suppressedEmails } from "~/db/schema";
import { addressHashes, foldEmail, foldEmailSql } from "~/features/privacy/address-key.server";
import { batch, columnName, getDb, type Statement } from "~/utils/db.server";

// Entries written before issue 25 (the raw secret, the address as typed) are still found.
const lookup = async (env: Env, email: string) =>
  (await addressHashes(env, "suppressed-email", email, { legacy: true })).map((h) => h.hash);

/** The list's records of `email`'s mailbox, any spelling (jane+afx@ and j.ane@ for jane@gmail.com). */
const sameMailbox = (email: string) => eq(foldEmailSql(leads.email), foldEmail(email));

/**
 * The statements that add `email` to the list (a repeat keeps the first entry) and mark the
 * list's records of its mailbox, for the caller's batch. The marking reads every lead's address
 * (no index holds the fold): an erasure or a "this wasn't me" is rare, a lead row cheap.
 */
export async function suppressStatements(
  env: Env,
  email: string,
  reason: string,
  now = Date.now(),
  /**
   * A condition on the batch's earlier writes (a mail event's): suppressed only if it holds.
   * Raw SQL (docs/decisions/024-data-layer.md): an INSERT … SELECT under it.
   */
  onlyIf?: SQL,
): Promise<Statement[]> {
  const [newest] = await addressHashes(env, "suppressed-email", email);
  const db = getDb(env);
  const s = suppressedEmails;
  return [
    onlyIf
      ? sql`INSERT INTO ${s} (${columnName(s.emailHash)}, ${columnName(s.keyId)}, ${columnName(s.reason)}, ${columnName(s.createdAt)})
          SELECT ${newest!.hash}, ${newest!.keyId}, ${reason}, ${now} WHERE ${onlyIf} ON CONFLICT DO NOTHING`
      : db
          .insert(s)
          .values({ emailHash: newest!.hash, keyId: newest!.keyId, reason, createdAt: now })
          .onConflictDoNothing(),
    db
      .update(leads)
      .set({ suppressedAt: new Date(now) })
      .where(and(isNull(leads.suppressedAt), sameMailbox(email), onlyIf)),
  ];
}

/** Whether `email` (any spelling of its mailbox) is on the list: no e-mail goes to it and no signup re-adds it. */
export async function isSuppressed(env: Env, email: string): Promise<boolean> {
  const all = await lookup(env, email);
  const row = await getDb(env)
    .select({ one: sql`1` })
    .from(suppressedEmails)
    .where(inArray(suppressedEmails.emailHash, all))
    .limit(1)
    .get();
  return row !== undefined;
}

/** The list's check inside a caller's batch (suppressionCheck). */
export interface SuppressionCheck {
  /** `guard`, and the address not on the list. */
  unless: (guard: SQL) => SQL;
  /** A row `{ suppressed }`, 1 when on the list: the check's answer, read in the same batch. */
  answer: Statement;
}

/**
 * `isSuppressed` for the caller's batch: a signup reads the list in the batch that writes its lead,
 * so the check and the write are one round trip and one transaction (docs/decisions/125).
 * Raw SQL (docs/decisions/024-data-layer.md): an EXISTS condition inside other statements' guards.
 */
export async function suppressionCheck(env: Env, email: string): Promise<SuppressionCheck> {
  const all = await lookup(env, email);
  const listed = sql`EXISTS (SELECT 1 FROM ${suppressedEmails} WHERE ${inArray(suppressedEmails.emailHash, all)})`;
  return { unless: (guard) => sql`(${guard}) AND NOT ${listed}`, answer: sql`SELECT ${listed} AS suppressed` };
}

/** For an address that is ignored anyway (a bot's, the site's own): the same statements, writing nothing. */
export const NEVER_WRITTEN: SuppressionCheck = { unless: () => sql`0`, answer: sql`SELECT 0 AS suppressed` };

/** Takes `email`'s mailbox off the list, its records' marks too: only when its verified owner asks to be mailed again. */
export async function liftSuppression(env: Env, email: string): Promise<void> {
  const all = await lookup(env, email);
  const db = getDb(env);
  await batch(db, [
    db.delete(suppressedEmails).where(inArray(suppressedEmails.emailHash, all)),
    db.update(leads).set({ suppressedAt: null }).where(sameMailbox(email)),
  ]);
}
