/**
 * The newsletter's double opt-in (docs/decisions/016-newsletter-double-opt-in.md): confirmation
 * links, confirming, unsubscribing, the verified member's direct subscription, and the sweep of
 * what expires. Tokens are 32 random bytes; D1 keeps only their SHA-256.
 */
import { and, eq, gt, inArray, lt, lte, ne, notExists, sql, type SQL } from "drizzle-orm";
import {
  confirmationCounts,
  leads,
  mailOutbox,
  newsletterTokens,
  type Lead,
  type LeadStatus,
  type LeadTopic,
  type NewLead,
} from "~/db/schema";
import type { MailMessage } from "~/features/mail/message";
import { queuedIds, queueMail } from "~/features/mail/outbox.server";
import { CONFIRMATION_KINDS, confirmationMail } from "~/features/leads/confirmation-mail.server";
import { TOPIC_CONSENT } from "~/features/leads/newsletter";
import { preferencesUrl } from "~/features/alerts/preferences.server";
import { addressHashes } from "~/features/privacy/address-key.server";
import { suppressStatements } from "~/features/privacy/suppression.server";
import { getConfig } from "~/utils/config.server";
import { hmacVerify, randomToken, sha256Hex } from "~/utils/crypto.server";
import { batch, columnName, getDb, together, type Db, type Statement } from "~/utils/db.server";
import { normaliseEmail } from "~/utils/mail-address";
import { legacyMailSecrets } from "~/features/mail/keys.server";
import { linkId, readLink, signLink, type LinkKind } from "~/features/mail/signed-link.server";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** How long a confirmation link works. */
export const CONFIRM_LINK_TTL_MS = 7 * DAY;
/** A pending address gets the e-mail again at most this often, however often it signs up. */
export const RESEND_AFTER_MS = 10 * MINUTE;
/** A lead nobody confirmed is deleted this long after its signup (the scheduled job), whatever was sent since. */
export const PENDING_TTL_MS = 30 * DAY;
/** Confirmation e-mails an address gets in its lifetime unless its owner confirms. */
export const MAX_CONFIRMATION_MAILS = 3;
/** No new link once a lead is this old: every link still works its 7 days before the lead is deleted. */
export const LAST_LINK_AFTER_MS = PENDING_TTL_MS - CONFIRM_LINK_TTL_MS;

/** A token as `randomToken()` makes them: 43 base64url characters. Anything else is not ours. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export const confirmPath = (token: string) => `/newsletter/confirm/${token}`;
export const unsubscribePath = (token: string) => `/newsletter/unsubscribe/${token}`;

/** The (normalised) e-mail's subscription status, or null when it is not on the list. */
export async function subscriptionStatus(
  db: Db,
  email: string,
  topic: LeadTopic = "newsletter",
): Promise<LeadStatus | null> {
  const [[row]] = await together(db, [
    db
      .select({ status: leads.status })
      .from(leads)
      .where(and(eq(leads.email, normaliseEmail(email)), eq(leads.topic, topic))),
  ]);
  return row?.status ?? null;
}

/**
 * What an unsubscribe link's page names before its button: the lead's address and whether it is
 * still on the list; null when the lead is gone (erased, or a "this wasn't me" already followed).
 */
export async function unsubscribeTarget(
  db: Db,
  leadId: number,
): Promise<{ email: string; listed: boolean; topic: LeadTopic } | null> {
  const row = await db
    .select({ email: leads.email, status: leads.status, topic: leads.topic })
    .from(leads)
    .where(eq(leads.id, leadId))
    .get();
  return row ? { email: row.email, listed: row.status !== "unsubscribed", topic: row.topic } : null;
}

/** The unsubscribe link: the lead's id, for good (every mail ever sent keeps a way out). */
const UNSUBSCRIBE_LINK: LinkKind = { purpose: "unsubscribe-link", label: "newsletter-unsubscribe" };

/**
 * The unsubscribe token of a lead (features/mail/signed-link.server.ts). It needs no storage and
 * never expires: every e-mail ever sent keeps a working way out while its key stays listed in MAIL_SECRET.
 */
export const unsubscribeToken = (env: Env, leadId: number): Promise<string> => signLink(env, UNSUBSCRIBE_LINK, leadId);

/**
 * The lead id an unsubscribe token names, when its signature holds under the key it names, or,
 * for a link of before issue 25 (`id.signature`), under a MAIL_SECRET value used raw.
 */
export async function readUnsubscribeToken(env: Env, token: string): Promise<number | null> {
  const legacy = /^([1-9]\d{0,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!legacy) return linkId(await readLink(env, UNSUBSCRIBE_LINK, token));
  const id = Number(legacy[1]);
  const secrets = legacyMailSecrets(env, UNSUBSCRIBE_LINK.purpose);
  return (await hmacVerify(secrets, `${UNSUBSCRIBE_LINK.label}:${id}`, legacy[2]!)) ? id : null;
}

/**
 * Queues the confirmation e-mail of a pending lead with a new link, unless a link went out less
 * than RESEND_AFTER_MS ago, the address (any spelling of its mailbox) had MAX_CONFIRMATION_MAILS
 * already, or the lead is too old for a link to live its 7 days: the token, the count and the
 * e-mail are written in one batch, the count and the e-mail only if the token was (concurrent
 * signups of one address send one e-mail). Returns the queued e-mail's outbox id, or null.
 * Raw SQL (docs/decisions/024-data-layer.md): INSERT … SELECT under conditions on other rows.
 */
/** What an alerts signup chose, as its confirmation e-mail repeats it: the ventures' names (none: all), the reminders. */
export interface SignupChoice {
  ventures: readonly string[];
  reminders: boolean;
}

export async function queueConfirmation(
  env: Env,
  lead: Pick<Lead, "id" | "email"> & { topic?: LeadTopic; choice?: SignupChoice },
  now = Date.now(),
  { notBefore }: { notBefore?: number } = {},
): Promise<number | null> {
  const token = randomToken();
  const hash = await sha256Hex(token);
  const { siteUrl } = getConfig(env);
  const message: MailMessage = confirmationMail({
    siteUrl,
    to: lead.email,
    topic: lead.topic ?? "newsletter",
    confirmUrl: new URL(confirmPath(token), siteUrl).href,
    unsubscribeUrl: new URL(unsubscribePath(await unsubscribeToken(env, lead.id)), siteUrl).href,
    preferencesUrl: lead.topic === "alerts" ? await preferencesUrl(env, siteUrl, lead.id) : undefined,
    choice: lead.topic === "alerts" ? lead.choice : undefined,
  });
  const counts = (await addressHashes(env, "confirmation-count", lead.email)).map((h) => h.hash);
  const db = getDb(env);
  const [t, c] = [newsletterTokens, confirmationCounts];
  const [, , queued] = await batch(db, [
    sql`INSERT INTO ${t} (${columnName(t.tokenHash)}, ${columnName(t.leadId)}, ${columnName(t.createdAt)})
        SELECT ${hash}, ${lead.id}, ${now}
        WHERE EXISTS (SELECT 1 FROM ${leads} WHERE ${leads.id} = ${lead.id} AND ${leads.status} = 'pending' AND ${leads.subscribedAt} > ${now - LAST_LINK_AFTER_MS})
          AND NOT EXISTS (SELECT 1 FROM ${t} WHERE ${t.leadId} = ${lead.id} AND ${t.createdAt} > ${now - RESEND_AFTER_MS})
          AND (SELECT COALESCE(SUM(${c.sent}), 0) FROM ${c} WHERE ${inArray(c.addressHash, counts)}) < ${MAX_CONFIRMATION_MAILS}`,
    sql`INSERT INTO ${c} (${columnName(c.addressHash)}, ${columnName(c.sent)}, ${columnName(c.updatedAt)})
        SELECT ${counts[0]}, 1, ${now} WHERE EXISTS (SELECT 1 FROM ${t} WHERE ${t.tokenHash} = ${hash})
        ON CONFLICT (${columnName(c.addressHash)}) DO UPDATE SET ${columnName(c.sent)} = ${c.sent} + 1, ${columnName(c.updatedAt)} = excluded.${columnName(c.updatedAt)}`,
    queueMail(db, message, now, {
      onlyIf: sql`EXISTS (SELECT 1 FROM ${t} WHERE ${t.tokenHash} = ${hash})`,
      notBefore,
    }),
  ]);
  return queuedIds(queued)[0] ?? null;
}

export type TokenCheck =
  | { state: "valid"; email: string; topic: LeadTopic; leadId: number }
  | { state: "expired"; topic: LeadTopic }
  | { state: "unknown" };

/** Where a confirmation token stands, without changing anything (the page a GET shows). */
export async function checkConfirmToken(db: Db, token: string, now = Date.now()): Promise<TokenCheck> {
  if (!TOKEN_SHAPE.test(token)) return { state: "unknown" };
  const row = await db
    .select({ createdAt: newsletterTokens.createdAt, email: leads.email, topic: leads.topic, leadId: leads.id })
    .from(newsletterTokens)
    .innerJoin(leads, eq(leads.id, newsletterTokens.leadId))
    .where(and(eq(newsletterTokens.tokenHash, await sha256Hex(token)), eq(leads.status, "pending")))
    .get();
  if (!row) return { state: "unknown" };
  return row.createdAt.getTime() <= now - CONFIRM_LINK_TTL_MS
    ? { state: "expired", topic: row.topic }
    : { state: "valid", email: row.email, topic: row.topic, leadId: row.leadId };
}

/**
 * Confirms the pending lead a token belongs to and retires every link of that lead (single use);
 * the owner has spoken, so the address's confirmation e-mail count starts over.
 * Only a POST calls this: mail scanners fetch links, and a GET must never subscribe anyone.
 */
export async function confirmSubscription(env: Env, token: string, now = Date.now()): Promise<TokenCheck> {
  const db = getDb(env);
  const check = await checkConfirmToken(db, token, now);
  if (check.state !== "valid") return check;
  const hash = await sha256Hex(token);
  const counts = (await addressHashes(env, "confirmation-count", check.email)).map((h) => h.hash);
  const leadOf = (live: boolean) =>
    db
      .select({ leadId: newsletterTokens.leadId })
      .from(newsletterTokens)
      .where(
        and(
          eq(newsletterTokens.tokenHash, hash),
          live ? gt(newsletterTokens.createdAt, new Date(now - CONFIRM_LINK_TTL_MS)) : undefined,
        ),
      );
  const [updated] = await batch(db, [
    db
      .update(leads)
      .set({ status: "confirmed", confirmedAt: new Date(now) })
      .where(and(eq(leads.id, leadOf(true)), eq(leads.status, "pending"))),
    // Raw SQL (docs/decisions/024-data-layer.md): only when the UPDATE confirmed the lead (changes()).
    sql`DELETE FROM ${confirmationCounts} WHERE changes() > 0 AND ${inArray(confirmationCounts.addressHash, counts)}`,
    db.delete(newsletterTokens).where(eq(newsletterTokens.leadId, leadOf(false))),
  ]);
  // A concurrent confirmation (a double click) may have used the link between the check and now.
  return (updated?.meta.changes ?? 0) > 0 ? check : { state: "unknown" };
}

/**
 * The unsubscribe link of an e-mail, followed. A pending lead has only ever been sent the
 * confirmation e-mail, so its unsubscribe is "this wasn't me": the address is suppressed (no
 * anonymous signup mails it again; only its verified owner, from Settings, lifts that), the lead
 * and its queued confirmations are deleted. Anyone else is unsubscribed as usual.
 */
export async function followUnsubscribeLink(env: Env, leadId: number, now = Date.now()): Promise<void> {
  const db = getDb(env);
  const pending = and(eq(leads.id, leadId), eq(leads.status, "pending"));
  const row = await db.select({ email: leads.email }).from(leads).where(pending).get();
  if (!row) {
    await unsubscribeLead(db, { id: leadId }, now);
    return;
  }
  // A mailbox that confirmed another topic is its owner's: "not me" on this one drops this signup
  // and suppresses nothing, so the other topic's mail goes on.
  const owned = await db
    .select({ one: sql`1` })
    .from(leads)
    .where(and(eq(leads.email, row.email), eq(leads.status, "confirmed")))
    .get();
  await batch(db, [
    ...(owned ? [] : await suppressStatements(env, row.email, "not-me", now)),
    db.delete(newsletterTokens).where(eq(newsletterTokens.leadId, leadId)),
    db.delete(leads).where(pending),
    db
      .delete(mailOutbox)
      .where(
        and(
          eq(mailOutbox.status, "queued"),
          inArray(mailOutbox.kind, CONFIRMATION_KINDS),
          eq(mailOutbox.recipient, row.email),
        ),
      ),
  ]);
}

/**
 * Takes a lead off the list (RFC 8058 one-click, the page's button, the member's switch, an admin)
 * and retires its links; true when it was not unsubscribed already. `thenRun` goes right after the
 * UPDATE in the same batch, where `changes()` still tells whether it changed anything (the audit);
 * `first` before it (a mail event's record, which `onlyIf` may read).
 */
export async function unsubscribeLead(
  db: Db,
  where: { id: number } | { email: string; topic?: LeadTopic; onlyIf?: SQL },
  now = Date.now(),
  thenRun: Statement[] = [],
  first: Statement[] = [],
): Promise<boolean> {
  return (await unsubscribeLeads(db, where, now, thenRun, first)) > 0;
}

/**
 * The same for many leads of one topic at once (the newsletter host's export: docs/decisions/101),
 * those `onlyIf` still holds for, or any `where` of unsubscribeLead: the number of leads it took off
 * the list. Raw SQL (docs/decisions/024-data-layer.md): the ids as one JSON parameter (json_each),
 * whatever their number.
 */
export async function unsubscribeLeads(
  db: Db,
  where:
    | { id: number }
    | { email: string; topic?: LeadTopic; onlyIf?: SQL }
    | { ids: readonly number[]; topic: LeadTopic; onlyIf?: SQL },
  now = Date.now(),
  thenRun: Statement[] = [],
  first: Statement[] = [],
): Promise<number> {
  // By address: one topic's lead, or without a topic every topic's (a spam complaint).
  const theLead =
    "id" in where
      ? eq(leads.id, where.id)
      : "ids" in where
        ? and(
            sql`${leads.id} IN (SELECT value FROM json_each(${JSON.stringify(where.ids)}))`,
            eq(leads.topic, where.topic),
          )
        : and(
            eq(leads.email, normaliseEmail(where.email)),
            where.topic ? eq(leads.topic, where.topic) : undefined,
            where.onlyIf,
          );
  // Many leads' condition holds for the UPDATE only: their links go whatever it now says.
  const guard = "ids" in where ? where.onlyIf : undefined;
  const results = await batch(db, [
    ...first,
    db
      .update(leads)
      .set({ status: "unsubscribed", unsubscribedAt: new Date(now) })
      .where(and(theLead, guard, ne(leads.status, "unsubscribed")))
      // The rows it changed (D1's `changes` counts the daily counts' trigger writes too).
      .returning({ id: leads.id }),
    ...thenRun,
    db
      .delete(newsletterTokens)
      .where(inArray(newsletterTokens.leadId, db.select({ id: leads.id }).from(leads).where(theLead))),
  ]);
  return (results[first.length] as { id: number }[]).length;
}

/** What a member's signup from Settings stores: the lead's own fields, as the schema types them. */
export type VerifiedMember = Pick<NewLead, "email" | "firstName" | "lastName" | "userAgent" | "pagePath" | "source"> & {
  topic?: LeadTopic;
};

/**
 * A signed-in member whose provider verified their e-mail subscribes without the round trip: the
 * lead is confirmed at once and its consent recorded as such. A pending lead keeps its signup
 * time; an unsubscribed one starts a new record.
 */
export async function subscribeVerifiedMember(db: Db, m: VerifiedMember, now = Date.now()): Promise<void> {
  const email = normaliseEmail(m.email);
  const topic = m.topic ?? "newsletter";
  const consentVersion = TOPIC_CONSENT[topic];
  // An unsubscribed lead starts a new record; a pending one keeps its signup's time, source and page.
  const restarted = (column: typeof leads.subscribedAt | typeof leads.source | typeof leads.pagePath) =>
    sql`CASE WHEN ${leads.status} = 'unsubscribed' THEN excluded.${columnName(column)} ELSE ${column} END`;
  await batch(db, [
    db
      .insert(leads)
      .values({
        email,
        firstName: m.firstName,
        lastName: m.lastName,
        source: m.source,
        userAgent: m.userAgent,
        pagePath: m.pagePath,
        subscribedAt: new Date(now),
        status: "confirmed",
        consentMethod: "verified-member",
        consentVersion,
        confirmedAt: new Date(now),
        topic,
      })
      .onConflictDoUpdate({
        target: [leads.email, leads.topic],
        set: {
          subscribedAt: restarted(leads.subscribedAt),
          source: restarted(leads.source),
          pagePath: restarted(leads.pagePath),
          // A new record is handed to the newsletter host again.
          handedOffAt: sql`CASE WHEN ${leads.status} = 'unsubscribed' THEN NULL ELSE ${leads.handedOffAt} END`,
          status: "confirmed",
          consentMethod: "verified-member",
          consentVersion,
          confirmedAt: new Date(now),
          unsubscribedAt: null,
        },
        setWhere: ne(leads.status, "confirmed"),
      }),
    db.delete(newsletterTokens).where(
      inArray(
        newsletterTokens.leadId,
        db
          .select({ id: leads.id })
          .from(leads)
          .where(and(eq(leads.email, email), eq(leads.topic, topic))),
      ),
    ),
  ]);
}

/**
 * A signup of a signed-in member's own, provider-verified address needs no e-mail round trip: the
 * pending lead is confirmed at once, its consent recorded as the verified member's. False when the
 * lead was not pending.
 */
export async function confirmVerifiedMember(db: Db, leadId: number, now = Date.now()): Promise<boolean> {
  const [updated] = await batch(db, [
    db
      .update(leads)
      .set({ status: "confirmed", consentMethod: "verified-member", confirmedAt: new Date(now) })
      .where(and(eq(leads.id, leadId), eq(leads.status, "pending"))),
    db.delete(newsletterTokens).where(eq(newsletterTokens.leadId, leadId)),
  ]);
  return updated.meta.changes > 0;
}

/**
 * The scheduled sweep: leads nobody confirmed within PENDING_TTL_MS of their signup (as the
 * e-mail promises; no link outlives its lead, see LAST_LINK_AFTER_MS), the confirmation e-mails
 * still queued for an address no longer pending, and expired links.
 */
export async function sweepExpired(
  db: Db,
  now = Date.now(),
): Promise<{ pendingRemoved: number; tokensRemoved: number }> {
  const [pending, , tokens] = await batch(db, [
    db.delete(leads).where(and(eq(leads.status, "pending"), lt(leads.subscribedAt, new Date(now - PENDING_TTL_MS)))),
    db.delete(mailOutbox).where(
      and(
        eq(mailOutbox.status, "queued"),
        inArray(mailOutbox.kind, CONFIRMATION_KINDS),
        notExists(
          db
            .select({ one: sql`1` })
            .from(leads)
            .where(and(eq(leads.email, mailOutbox.recipient), eq(leads.status, "pending"))),
        ),
      ),
    ),
    db.delete(newsletterTokens).where(lte(newsletterTokens.createdAt, new Date(now - CONFIRM_LINK_TTL_MS))),
  ]);
  return { pendingRemoved: pending.meta.changes, tokensRemoved: tokens.meta.changes };
}
