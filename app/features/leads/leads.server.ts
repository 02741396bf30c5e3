/**
 * Leads in D1 (docs/decisions/005-newsletter-and-leads.md): the insert that makes a repeat a no-op, the newest-first keyset
 * pages, and the dashboard's statistics, every figure computed in SQL on the indexes of
 * migrations/0000_init.sql.
 */
import { and, desc, eq, gte } from "drizzle-orm";
import { leads, type Lead, type LeadStatus, type NewLead } from "~/db/schema";
import {
  countableByDay,
  dailyCountCondition,
  DEFAULT_FILTER,
  filterCondition,
  statusCondition,
  type LeadFilter,
  type LeadFilters,
} from "~/features/leads/lead-filters.server";
import { getDb } from "~/utils/db.server";
import { countAttempt, countsOf, withinLimit, type Attempt } from "~/features/forms/rate-limit.server";
import { keysetCursor } from "~/utils/keyset-cursor";

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

/** The (normalised) e-mail's subscription status, or null when it is not on the list. */
export async function subscriptionStatus(db: D1Database, email: string): Promise<LeadStatus | null> {
  const row = await getDb({ DB: db }).select({ status: leads.status }).from(leads).where(eq(leads.email, email.trim().toLowerCase())).get();
  return row?.status ?? null;
}

/** A signup as stored: the lead's fields and its consent record. */
export type SignupRecord = NewLead & { subscribedAt: Date; consentVersion: string };

/** The lead a signup reached, with where it stands after it. */
export interface SignupOutcome {
  counts: { client: number; global: number };
  /** The address's lead after the batch (whatever the rate limit decided: check the counts first). */
  lead: (PublicLead & { status: LeadStatus }) | null;
  /** The signup made the lead pending now (new, or back after unsubscribing): a first e-mail is due. */
  started: boolean;
  /** When the newest confirmation link of the lead was made (ms), if any. */
  lastLinkAt: number | null;
}

const SIGNUP_COLUMNS = [
  "email",
  "first_name",
  "last_name",
  "source",
  "user_agent",
  "referrer",
  "client_timestamp",
  "page_path",
  "subscribed_at",
  "consent_version",
] as const;

/**
 * Counts the signup attempt and, while the client is within its rate limit, stores the signup:
 * a new address becomes a pending lead; an unsubscribed one starts over as pending with this
 * signup's consent record; a pending or confirmed one is left as it is. One D1 batch (one round
 * trip, one transaction); the unique index settles concurrent repeats. The batch's last statement
 * reads where the address stands afterwards.
 */
export async function recordSignup(db: D1Database, lead: SignupRecord, attempt: Attempt): Promise<SignupOutcome> {
  const values = [
    lead.email,
    lead.firstName,
    lead.lastName ?? null,
    lead.source,
    lead.userAgent ?? null,
    lead.referrer ?? null,
    lead.clientTimestamp ?? null,
    lead.pagePath ?? null,
    lead.subscribedAt.getTime(),
    lead.consentVersion,
  ];
  const guard = withinLimit(attempt, values.length + 1);
  const restart = SIGNUP_COLUMNS.filter((c) => c !== "email")
    .map((c) => `${c} = excluded.${c}`)
    .join(", ");
  const results = await db.batch([
    ...countAttempt(db, attempt),
    db
      .prepare(
        `INSERT INTO leads (${SIGNUP_COLUMNS.join(", ")}, status, consent_method)
         SELECT ${values.map((_, i) => `?${i + 1}`).join(", ")}, 'pending', 'double-opt-in' WHERE ${guard.sql}
         ON CONFLICT (email) DO UPDATE SET ${restart}, status = 'pending', consent_method = 'double-opt-in',
           confirmed_at = NULL, unsubscribed_at = NULL
         WHERE leads.status = 'unsubscribed'
         RETURNING id`,
      )
      .bind(...values, ...guard.params),
    db
      .prepare(
        `SELECT id, email, first_name, last_name, source, subscribed_at, status,
           (SELECT MAX(created_at) FROM newsletter_tokens WHERE lead_id = leads.id) AS last_link_at
         FROM leads WHERE email = ?1`,
      )
      .bind(lead.email),
  ]);
  const started = results[2].results.length > 0;
  const row = results[3].results[0] as (LeadRow & { status: LeadStatus; last_link_at: number | null }) | undefined;
  return {
    counts: countsOf(results),
    lead: row ? { ...fromRow(row), status: row.status } : null,
    started,
    lastLinkAt: row?.last_link_at ?? null,
  };
}

type LeadRow = { id: number; email: string; first_name: string; last_name: string | null; source: string; subscribed_at: number };

function fromRow(row: LeadRow): PublicLead {
  return toPublicLead({
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    source: row.source,
    subscribedAt: new Date(row.subscribed_at),
  });
}

/** Keyset position: the last lead of a page (newest first). */
export interface LeadCursor {
  subscribedAt: number;
  id: number;
}

export const { encode: encodeCursor, decode: decodeCursor } = keysetCursor("subscribedAt");

/** The SQL of one page of the filtered list (tests read its query plan). */
export function leadPageQuery(filters: LeadFilters, cursor: LeadCursor | null, limit: number) {
  const where = filterCondition(filters);
  const after = cursor ? " AND (subscribed_at, id) < (?, ?)" : "";
  return {
    sql: `SELECT id, email, first_name, last_name, source, subscribed_at FROM leads WHERE ${where.sql}${after} ORDER BY subscribed_at DESC, id DESC LIMIT ?`,
    params: [...where.params, ...(cursor ? [cursor.subscribedAt, cursor.id] : []), limit],
  };
}

/** One page of the leads the filters select, newest first, after `cursor`; `next` is set when more may follow. */
export async function listLeads(
  db: D1Database,
  { limit, cursor = null, filters = { status: DEFAULT_FILTER } }: { limit: number; cursor?: LeadCursor | null; filters?: LeadFilters },
): Promise<{ leads: PublicLead[]; next: LeadCursor | null }> {
  const query = leadPageQuery(filters, cursor, limit + 1);
  const { results: rows } = await db
    .prepare(query.sql)
    .bind(...query.params)
    .all<LeadRow>();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    leads: page.map(fromRow),
    next: rows.length > limit && last ? { subscribedAt: last.subscribed_at, id: last.id } : null,
  };
}

export interface SourceCount {
  source: string;
  count: number;
}

export interface LeadStats {
  /** Leads of the filter (confirmed subscribers by default). */
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
export async function getLeadStats(db: D1Database, now = Date.now(), filter: LeadFilter = DEFAULT_FILTER): Promise<LeadStats> {
  const since = now - WEEK_MS;
  const firstDay = Math.floor(since / DAY_MS);
  const status = statusCondition(filter);
  const [week, bySource] = await db.batch([
    db
      .prepare(
        `SELECT (SELECT COALESCE(SUM(count), 0) FROM lead_daily_counts WHERE day > ?1 AND ${status})
              + (SELECT COUNT(*) FROM leads WHERE subscribed_at >= ?2 AND subscribed_at < ?3 AND ${status}) AS thisWeek`,
      )
      .bind(firstDay, since, (firstDay + 1) * DAY_MS),
    db.prepare(
      `SELECT source, SUM(count) AS count FROM lead_daily_counts WHERE ${status}
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

/**
 * Leads per status among those the other filters select (search, source, dates): from
 * `lead_daily_counts` when the filters are whole days, else counted on the search's index range.
 */
export async function countByStatus(db: D1Database, filters: LeadFilters = { status: "all" }): Promise<Record<LeadStatus, number>> {
  const daily = countableByDay(filters);
  const where = daily ? dailyCountCondition(filters, { withStatus: false }) : filterCondition(filters, { withStatus: false });
  const { results } = await db
    .prepare(
      daily
        ? `SELECT status, SUM(count) AS count FROM lead_daily_counts WHERE ${where.sql} GROUP BY status`
        : `SELECT status, COUNT(*) AS count FROM leads WHERE ${where.sql} GROUP BY status`,
    )
    .bind(...where.params)
    .all<{ status: LeadStatus; count: number }>();
  const counts = { pending: 0, confirmed: 0, unsubscribed: 0 };
  for (const r of results) counts[r.status] = r.count;
  return counts;
}

export async function getGrowth(db: D1Database, now = Date.now(), filter: LeadFilter = DEFAULT_FILTER): Promise<Growth> {
  const todayStart = now - (now % DAY_MS);
  const firstDay = todayStart - (GROWTH_DAYS - 1) * DAY_MS;
  const orm = getDb({ DB: db });
  const [recent, perDay] = await Promise.all([
    orm
      .select(publicColumns)
      .from(leads)
      .where(and(gte(leads.subscribedAt, new Date(now - GROWTH_DAYS * DAY_MS)), filter === "all" ? undefined : eq(leads.status, filter)))
      .orderBy(desc(leads.subscribedAt), desc(leads.id))
      .limit(GROWTH_LIST_MAX),
    db
      .prepare(`SELECT day, SUM(count) AS count FROM lead_daily_counts WHERE day BETWEEN ?1 AND ?2 AND ${statusCondition(filter)} GROUP BY day`)
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
