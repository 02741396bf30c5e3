/**
 * Leads in D1 (docs/decisions/005-newsletter-and-leads.md): the insert that makes a repeat a no-op, the newest-first keyset
 * pages, and the dashboard's statistics, every figure computed in SQL on the indexes of
 * migrations/0000_init.sql.
 */
import { and, desc, eq, gte, lt, or } from "drizzle-orm";
import { leads, type Lead, type NewLead } from "~/db/schema";
import { getDb } from "~/utils/db.server";
import { countAttempt, countsOf, withinLimit, type Attempt } from "~/features/forms/rate-limit.server";

const DAY_MS = 24 * 60 * 60 * 1000;
export const WEEK_MS = 7 * DAY_MS;
export const GROWTH_DAYS = 30;
export const GROWTH_LIST_MAX = 10;
/** GET /api/leads page size. */
export const LIST_LIMIT = { default: 100, max: 1000 } as const;

/** A lead as `GET /api/leads` and the dashboard show it. */
export interface PublicLead {
  id: number;
  email: string;
  firstName: string;
  lastName: string | null;
  source: string;
  /** ISO 8601, UTC. */
  subscribedAt: string;
}

export function toPublicLead(lead: Pick<Lead, keyof Omit<PublicLead, "subscribedAt">> & { subscribedAt: Date }): PublicLead {
  return {
    id: lead.id,
    email: lead.email,
    firstName: lead.firstName,
    lastName: lead.lastName,
    source: lead.source,
    subscribedAt: lead.subscribedAt.toISOString(),
  };
}

const publicColumns = {
  id: leads.id,
  email: leads.email,
  firstName: leads.firstName,
  lastName: leads.lastName,
  source: leads.source,
  subscribedAt: leads.subscribedAt,
};

/**
 * Inserts a lead unless its (normalised) e-mail is already there; null for a repeat. For trusted
 * callers (a signed-in member's settings); public signups go through insertLeadCounted.
 */
export async function insertLead(db: D1Database, lead: NewLead): Promise<PublicLead | null> {
  const [row] = await getDb({ DB: db })
    .insert(leads)
    .values({ ...lead, email: lead.email.trim().toLowerCase() })
    .onConflictDoNothing({ target: leads.email })
    .returning(publicColumns);
  return row ? toPublicLead(row) : null;
}

/** Whether the (normalised) e-mail is on the list. */
export async function isSubscribed(db: D1Database, email: string): Promise<boolean> {
  const row = await getDb({ DB: db }).select({ id: leads.id }).from(leads).where(eq(leads.email, email.trim().toLowerCase())).get();
  return Boolean(row);
}

/** Takes the (normalised) e-mail off the list. */
export async function removeLead(db: D1Database, email: string): Promise<void> {
  await getDb({ DB: db }).delete(leads).where(eq(leads.email, email.trim().toLowerCase()));
}

/**
 * Counts the signup attempt and, while the client is within its rate limit, inserts the lead unless
 * its (normalised) e-mail is already there: one D1 batch, so one round trip and one transaction.
 * The insert is a single statement, so concurrent repeats race on the unique index and exactly one
 * of them gets the row; the others get null.
 */
export async function insertLeadCounted(
  db: D1Database,
  lead: NewLead & { subscribedAt: Date },
  attempt: Attempt,
): Promise<{ counts: { client: number; global: number }; lead: PublicLead | null }> {
  // Columns and values side by side; the guard's parameters are numbered after the row's.
  const columns = {
    email: lead.email,
    first_name: lead.firstName,
    last_name: lead.lastName ?? null,
    source: lead.source,
    user_agent: lead.userAgent ?? null,
    referrer: lead.referrer ?? null,
    client_timestamp: lead.clientTimestamp ?? null,
    page_path: lead.pagePath ?? null,
    subscribed_at: lead.subscribedAt.getTime(),
  };
  const values = Object.values(columns);
  const guard = withinLimit(attempt, values.length + 1);
  const placeholders = values.map((_, i) => `?${i + 1}`).join(", ");
  const results = await db.batch([
    ...countAttempt(db, attempt),
    db
      .prepare(
        `INSERT INTO leads (${Object.keys(columns).join(", ")})
         SELECT ${placeholders} WHERE ${guard.sql}
         ON CONFLICT (email) DO NOTHING
         RETURNING id, email, first_name, last_name, source, subscribed_at`,
      )
      .bind(...values, ...guard.params),
  ]);
  const row = results[2].results[0] as
    | { id: number; email: string; first_name: string; last_name: string | null; source: string; subscribed_at: number }
    | undefined;
  return {
    counts: countsOf(results),
    lead: row
      ? toPublicLead({
          id: row.id,
          email: row.email,
          firstName: row.first_name,
          lastName: row.last_name,
          source: row.source,
          subscribedAt: new Date(row.subscribed_at),
        })
      : null,
  };
}

/** Keyset position: the last lead of a page (newest first). */
export interface LeadCursor {
  subscribedAt: number;
  id: number;
}

export function encodeCursor(c: LeadCursor): string {
  return `${c.subscribedAt}.${c.id}`;
}

export function decodeCursor(value: string | null): LeadCursor | null | "invalid" {
  if (value === null || value === "") return null;
  const match = value.match(/^(\d{1,15})\.(\d{1,15})$/);
  return match ? { subscribedAt: Number(match[1]), id: Number(match[2]) } : "invalid";
}

/** One page of leads, newest first, after `cursor`; `next` is set when more may follow. */
export async function listLeads(
  db: D1Database,
  { limit, cursor = null }: { limit: number; cursor?: LeadCursor | null },
): Promise<{ leads: PublicLead[]; next: LeadCursor | null }> {
  const rows = await getDb({ DB: db })
    .select(publicColumns)
    .from(leads)
    .where(
      cursor
        ? or(
            lt(leads.subscribedAt, new Date(cursor.subscribedAt)),
            and(eq(leads.subscribedAt, new Date(cursor.subscribedAt)), lt(leads.id, cursor.id)),
          )
        : undefined,
    )
    .orderBy(desc(leads.subscribedAt), desc(leads.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    leads: page.map(toPublicLead),
    next: rows.length > limit && last ? { subscribedAt: last.subscribedAt.getTime(), id: last.id } : null,
  };
}

export interface SourceCount {
  source: string;
  count: number;
}

export interface LeadStats {
  total: number;
  /** Subscribed in the last 7 × 24 h. */
  thisWeek: number;
  /** Most first; ties in alphabetical order, so the first is the top source. */
  sources: SourceCount[];
}

/**
 * From `lead_daily_counts` (kept by triggers): a few rows per day instead of every lead. The
 * rolling week is the whole days after its first day plus that first day's leads since `now - 7d`,
 * counted on the subscribed_at index (one day's rows at most).
 */
export async function getLeadStats(db: D1Database, now = Date.now()): Promise<LeadStats> {
  const since = now - WEEK_MS;
  const firstDay = Math.floor(since / DAY_MS);
  const [week, bySource] = await db.batch([
    db
      .prepare(
        `SELECT (SELECT COALESCE(SUM(count), 0) FROM lead_daily_counts WHERE day > ?1)
              + (SELECT COUNT(*) FROM leads WHERE subscribed_at >= ?2 AND subscribed_at < ?3) AS thisWeek`,
      )
      .bind(firstDay, since, (firstDay + 1) * DAY_MS),
    db.prepare(
      `SELECT source, SUM(count) AS count FROM lead_daily_counts
       GROUP BY source HAVING SUM(count) > 0 ORDER BY count DESC, source ASC`,
    ),
  ]);
  const sources = bySource.results as unknown as SourceCount[];
  return {
    total: sources.reduce((sum, s) => sum + s.count, 0),
    thisWeek: (week.results[0] as { thisWeek: number }).thisWeek,
    sources,
  };
}

/** The stats API's shape: bySource as a map of source to count. */
export function statsResponse(stats: LeadStats) {
  return {
    total: stats.total,
    thisWeek: stats.thisWeek,
    bySource: Object.fromEntries(stats.sources.map((s) => [s.source, s.count])),
  };
}

export interface Growth {
  /** Up to 10 leads of the last 30 × 24 h, newest first. */
  recent: PublicLead[];
  /** Signups per UTC day, oldest first: the 29 days before today and today. */
  daily: { date: string; count: number }[];
}

export async function getGrowth(db: D1Database, now = Date.now()): Promise<Growth> {
  const todayStart = now - (now % DAY_MS);
  const firstDay = todayStart - (GROWTH_DAYS - 1) * DAY_MS;
  const orm = getDb({ DB: db });
  const [recent, perDay] = await Promise.all([
    orm
      .select(publicColumns)
      .from(leads)
      .where(gte(leads.subscribedAt, new Date(now - GROWTH_DAYS * DAY_MS)))
      .orderBy(desc(leads.subscribedAt), desc(leads.id))
      .limit(GROWTH_LIST_MAX),
    db
      .prepare("SELECT day, SUM(count) AS count FROM lead_daily_counts WHERE day BETWEEN ?1 AND ?2 GROUP BY day")
      .bind(firstDay / DAY_MS, todayStart / DAY_MS)
      .all<{ day: number; count: number }>(),
  ]);
  const counts = new Map(perDay.results.map((r) => [r.day, r.count]));
  const daily = Array.from({ length: GROWTH_DAYS }, (_, i) => ({
    date: new Date(firstDay + i * DAY_MS).toISOString().slice(0, 10),
    count: counts.get(firstDay / DAY_MS + i) ?? 0,
  }));
  return { recent: recent.map(toPublicLead), daily };
}
