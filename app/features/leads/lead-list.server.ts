/**
 * The admins' reads of the leads (docs/decisions/017-leads-workbench.md): the workbench's and
 * `GET /api/leads`'s newest-first keyset pages, and the lead as they show it.
 */
import { and, desc, isNull, sql, type SQL } from "drizzle-orm";
import { QueryBuilder, type SQLiteSelectQueryBuilder } from "drizzle-orm/sqlite-core";
import { leads, type Lead } from "~/db/schema";
import { DEFAULT_FILTER, filterCondition, type LeadFilters } from "~/features/leads/lead-filters.server";
import { getDb } from "~/utils/db.server";
import { keysetCursor } from "~/utils/keyset-cursor";

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

/** Keyset position: the last lead of a page (newest first). */
export interface LeadCursor {
  subscribedAt: number;
  id: number;
}

export const { encode: encodeCursor, decode: decodeCursor } = keysetCursor("subscribedAt");

/** A page's columns: the lead as it is shown (here, in the CSV and in the dashboard's recent list). */
export const PAGE_COLUMNS = {
  id: leads.id,
  email: leads.email,
  firstName: leads.firstName,
  lastName: leads.lastName,
  source: leads.source,
  subscribedAt: leads.subscribedAt,
};

/**
 * One page of the filtered list, newest first, after `cursor`: the filters are index ranges
 * (lead-filters.server.ts) and the keyset a row-value comparison on the same index, so a page
 * reads its own rows only. tests/worker/leads-workbench.test.ts pins the plans of `leadPageQuery`,
 * the SQL of this very query.
 */
function leadPage<T extends SQLiteSelectQueryBuilder>(select: T, filters: LeadFilters, cursor: LeadCursor | null, limit: number, also?: SQL): T {
  // Row values: the builder has no form for them; still over the schema's columns, values bound.
  const after = cursor ? sql`(${leads.subscribedAt}, ${leads.id}) < (${cursor.subscribedAt}, ${cursor.id})` : undefined;
  return select
    .where(and(filterCondition(filters), after, also))
    .orderBy(desc(leads.subscribedAt), desc(leads.id))
    .limit(limit);
}

/**
 * One page's query, to read its SQL (the query-plan test) or run it as D1 arrays (the CSV). The
 * CSV leaves out the records of a suppressed mailbox (docs/decisions/060): a check on the rows the
 * index already chose, so the plans stay those of the list.
 */
export function leadPageQuery(filters: LeadFilters, cursor: LeadCursor | null, limit: number) {
  return leadPage(new QueryBuilder().select(PAGE_COLUMNS).from(leads).$dynamic(), filters, cursor, limit, isNull(leads.suppressedAt));
}

/** One page of the leads the filters select, newest first, after `cursor`; `next` is set when more may follow. */
export async function listLeads(
  db: D1Database,
  { limit, cursor = null, filters = { status: DEFAULT_FILTER } }: { limit: number; cursor?: LeadCursor | null; filters?: LeadFilters },
): Promise<{ leads: PublicLead[]; next: LeadCursor | null }> {
  const rows = await leadPage(getDb({ DB: db }).select(PAGE_COLUMNS).from(leads).$dynamic(), filters, cursor, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    leads: page.map(toPublicLead),
    next: rows.length > limit && last ? { subscribedAt: last.subscribedAt.getTime(), id: last.id } : null,
  };
}
