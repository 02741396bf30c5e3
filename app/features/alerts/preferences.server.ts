/**
 * Alert preferences without signing in (docs/decisions/099): every alerts mail links the
 * subscriber's own preferences page by a signed link like the unsubscribe link's
 * (features/mail/signed-link.server.ts: the lead's id under a key of its own; no storage, no expiry).
 */
import { and, count, eq, isNull, sql } from "drizzle-orm";
import { shownVentures } from "~/features/ventures/catalogue.server";
import { leads, type Lead } from "~/db/schema";
import { choiceColumns, type AlertChoice, type AlertsAudience, type AlertVenture } from "~/features/alerts/preferences";
import { linkId, readLink, signLink, type LinkKind } from "~/features/mail/signed-link.server";
import { together, type Db } from "~/utils/db.server";

export const preferencesPath = (token: string) => `/alerts/preferences/${token}`;

/** The preferences link: the lead's id, for good (like the unsubscribe link). */
const PREFERENCES_LINK: LinkKind = { purpose: "preferences-link", label: "alert-preferences" };

/** The preferences token of an alerts lead. */
export const preferencesToken = (env: Env, leadId: number): Promise<string> => signLink(env, PREFERENCES_LINK, leadId);

/** The lead id a preferences token names, when its signature holds under the key it names. */
export async function readPreferencesToken(env: Env, token: string): Promise<number | null> {
  return linkId(await readLink(env, PREFERENCES_LINK, token));
}

/** Where confirming investor alerts lands: the confirmed page, with the lead's preferences key to choose there. */
export async function alertsConfirmedPath(env: Env, leadId: number): Promise<string> {
  return `/newsletter/confirmed?topic=alerts&preferences=${await preferencesToken(env, leadId)}`;
}

/** The preferences page's URL of a lead, absolute (for a mail). */
export async function preferencesUrl(env: Env, siteUrl: string, leadId: number): Promise<string> {
  return new URL(preferencesPath(await preferencesToken(env, leadId)), siteUrl).href;
}

/**
 * The ventures a subscriber may choose, in the catalogue's order: the one place the alerts read
 * the venture catalogue (it takes the data handle so a catalogue in D1 needs no other change).
 */
export async function alertVentures(db: Db): Promise<AlertVenture[]> {
  return (await shownVentures(db)).map((s) => ({ id: s.id, name: s.name }));
}

/** An alerts lead as its preferences page shows it; null for another topic's or a gone lead. */
export async function alertsLead(
  db: Db,
  where: { id: number } | { email: string },
): Promise<Pick<Lead, "id" | "email" | "status" | "alertVentures" | "alertKinds" | "eventReminders"> | null> {
  const [[row]] = await together(db, [
    db
      .select({
        id: leads.id,
        email: leads.email,
        status: leads.status,
        alertVentures: leads.alertVentures,
        alertKinds: leads.alertKinds,
        eventReminders: leads.eventReminders,
      })
      .from(leads)
      .where(and("id" in where ? eq(leads.id, where.id) : eq(leads.email, where.email), eq(leads.topic, "alerts"))),
  ]);
  return row ?? null;
}

/** Stores an alerts lead's choice; nothing else of the lead changes. False when it is not one. */
export async function saveAlertChoice(db: Db, leadId: number, choice: AlertChoice): Promise<boolean> {
  const result = await db
    .update(leads)
    .set(choiceColumns(choice))
    .where(and(eq(leads.id, leadId), eq(leads.topic, "alerts")))
    .returning({ id: leads.id });
  return result.length > 0;
}

/**
 * The ventures a signup ticked (ids), stored on its pending alerts lead: only the catalogue's, and
 * all or none ticked is "all" (null). The chosen ventures' names, for the confirmation e-mail.
 */
export async function chooseSignupVentures(db: Db, leadId: number, ticked: readonly string[]): Promise<string[]> {
  if (!ticked.length) return [];
  const known = await alertVentures(db);
  const chosen = known.filter((v) => ticked.includes(v.id));
  const ventures = chosen.length && chosen.length < known.length ? chosen : [];
  await db
    .update(leads)
    .set({ alertVentures: choiceColumns({ ventures: ventures.map((v) => v.id), kinds: null }).alertVentures })
    .where(and(eq(leads.id, leadId), eq(leads.topic, "alerts"), eq(leads.status, "pending")));
  return ventures.map((v) => v.name);
}

/**
 * The two reads of the alerts audience: those who get every venture's alerts, and per venture
 * those who chose it, both from leads_audience_idx alone (migrations/0026; its plans are pinned by
 * tests/server/audience-plans.test.ts). Raw SQL (docs/decisions/024-data-layer.md): json_each over
 * the choice.
 */
export function audienceQueries(db: Db) {
  const subscribed = and(eq(leads.topic, "alerts"), eq(leads.status, "confirmed"), isNull(leads.suppressedAt));
  return [
    db
      .select({ n: count() })
      .from(leads)
      .where(and(subscribed, isNull(leads.alertVentures))),
    sql`SELECT j.value AS venture, COUNT(*) AS n FROM ${leads}, json_each(${leads.alertVentures}) AS j
        WHERE ${subscribed} AND ${leads.alertVentures} IS NOT NULL GROUP BY j.value`,
  ] as const;
}

/** The dashboard's alerts subscribers by venture: those who get every venture's alerts, and per venture those who chose it. */
export async function alertsByVenture(db: Db): Promise<AlertsAudience> {
  // The ventures in the same round trip: neither waits for the other.
  const [[allRows, chosen], ventures] = await Promise.all([together(db, audienceQueries(db)), alertVentures(db)]);
  const by = new Map(((chosen as D1Result<{ venture: string; n: number }>).results ?? []).map((r) => [r.venture, r.n]));
  return {
    all: allRows[0]?.n ?? 0,
    ventures: ventures.map((v) => ({ ...v, chose: by.get(v.id) ?? 0 })),
  };
}
