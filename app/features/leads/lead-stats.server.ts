/**
 * The leads dashboard's and `GET /api/leads/stats`' figures (docs/decisions/005-newsletter-and-leads.md),
 * every one computed in SQL: totals from `lead_daily_counts` (kept by the triggers of
 * migrations/0005), a few rows per day instead of every lead.
 */
import { and, asc, between, count, desc, eq, gt, gte, lt, sql, sum, type SQL } from "drizzle-orm";
import { leadDailyCounts, leads, type LeadStatus } from "~/db/schema";
import {
  countableByDay,
  dailyCountCondition,
  DEFAULT_FILTER,
  filterCondition,
  type LeadFilter,
  type LeadFilters,
} from "~/features/leads/lead-filters.server";
import { PAGE_COLUMNS, toPublicLead, type PublicLead } from "~/features/leads/lead-list.server";
import { together, type Db } from "~/utils/db.server";

const DAY_MS = 24 * 60 * 60 * 1000;
export const WEEK_MS = 7 * DAY_MS;
export const GROWTH_DAYS = 30;
export const GROWTH_LIST_MAX = 10;

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

/** The status filter on a table with a `status` column (none for "all"). */
const ofStatus = (column: typeof leads.status | typeof leadDailyCounts.status, filter: LeadFilter): SQL | undefined =>
  filter === "all" ? undefined : eq(column, filter);

/** SUM as a number (SQLite's SUM of integers is an integer; Drizzle's `sum` types it as a string). */
const total = (column: typeof leadDailyCounts.count) => sql<number>`COALESCE(SUM(${column}), 0)`.mapWith(Number);

/**
 * The rolling week is the whole days after its first day plus that first day's leads since
 * `now - 7d`, counted on the subscribed_at index (one day's rows at most). One D1 batch.
 */
export async function getLeadStats(db: Db, now = Date.now(), filter: LeadFilter = DEFAULT_FILTER): Promise<LeadStats> {
  const since = now - WEEK_MS;
  const firstDay = Math.floor(since / DAY_MS);
  const [wholeDays, firstDayLeads, sources] = await together(db, [
    db
      .select({ n: total(leadDailyCounts.count) })
      .from(leadDailyCounts)
      .where(and(gt(leadDailyCounts.day, firstDay), ofStatus(leadDailyCounts.status, filter))),
    db
      .select({ n: count() })
      .from(leads)
      .where(
        and(
          gte(leads.subscribedAt, new Date(since)),
          lt(leads.subscribedAt, new Date((firstDay + 1) * DAY_MS)),
          ofStatus(leads.status, filter),
          eq(leads.topic, "newsletter"),
        ),
      ),
    db
      .select({ source: leadDailyCounts.source, count: total(leadDailyCounts.count) })
      .from(leadDailyCounts)
      .where(ofStatus(leadDailyCounts.status, filter))
      .groupBy(leadDailyCounts.source)
      .having(gt(sum(leadDailyCounts.count), 0))
      .orderBy(desc(total(leadDailyCounts.count)), asc(leadDailyCounts.source)),
  ]);
  return {
    total: sources.reduce((n, s) => n + s.count, 0),
    thisWeek: (wholeDays[0]?.n ?? 0) + (firstDayLeads[0]?.n ?? 0),
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

/**
 * Leads per status among those the other filters select (search, source, dates): from
 * `lead_daily_counts` when the filters are whole days, else counted on the search's index range.
 */
export async function countByStatus(
  db: Db,
  filters: LeadFilters = { status: "all" },
): Promise<Record<LeadStatus, number>> {
  const [results] = countableByDay(filters)
    ? await together(db, [
        db
          .select({ status: leadDailyCounts.status, count: total(leadDailyCounts.count) })
          .from(leadDailyCounts)
          .where(dailyCountCondition(filters, { withStatus: false }))
          .groupBy(leadDailyCounts.status),
      ])
    : await together(db, [
        db
          .select({ status: leads.status, count: count() })
          .from(leads)
          .where(filterCondition(filters, { withStatus: false }))
          .groupBy(leads.status),
      ]);
  const counts = { pending: 0, confirmed: 0, unsubscribed: 0, undeliverable: 0 };
  for (const r of results) counts[r.status] = r.count;
  return counts;
}

export interface Growth {
  /** Up to 10 leads of the last 30 × 24 h, newest first. */
  recent: PublicLead[];
  /** Signups per UTC day, oldest first: the 29 days before today and today. */
  daily: { date: string; count: number }[];
}

export async function getGrowth(db: Db, now = Date.now(), filter: LeadFilter = DEFAULT_FILTER): Promise<Growth> {
  const todayStart = now - (now % DAY_MS);
  const firstDay = todayStart - (GROWTH_DAYS - 1) * DAY_MS;
  const [recent, perDay] = await together(db, [
    db
      .select(PAGE_COLUMNS)
      .from(leads)
      .where(
        and(
          gte(leads.subscribedAt, new Date(now - GROWTH_DAYS * DAY_MS)),
          ofStatus(leads.status, filter),
          eq(leads.topic, "newsletter"),
        ),
      )
      .orderBy(desc(leads.subscribedAt), desc(leads.id))
      .limit(GROWTH_LIST_MAX),
    db
      .select({ day: leadDailyCounts.day, count: total(leadDailyCounts.count) })
      .from(leadDailyCounts)
      .where(
        and(
          between(leadDailyCounts.day, firstDay / DAY_MS, todayStart / DAY_MS),
          ofStatus(leadDailyCounts.status, filter),
        ),
      )
      .groupBy(leadDailyCounts.day),
  ]);
  const counts = new Map(perDay.map((r) => [r.day, r.count]));
  const daily = Array.from({ length: GROWTH_DAYS }, (_, i) => ({
    date: new Date(firstDay + i * DAY_MS).toISOString().slice(0, 10),
    count: counts.get(firstDay / DAY_MS + i) ?? 0,
  }));
  return { recent: recent.map(toPublicLead), daily };
}
