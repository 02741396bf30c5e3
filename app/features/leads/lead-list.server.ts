/**
 * The admins' reads of the leads (docs/decisions/017-leads-workbench.md): the workbench's and
 * `GET /api/leads`'s newest-first keyset pages, and the lead as they show it.
 */
import type { Lead } from "~/db/schema";
import { DEFAULT_FILTER, filterCondition, type LeadFilters } from "~/features/leads/lead-filters.server";

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

export function encodeCursor(c: LeadCursor): string {
  return `${c.subscribedAt}.${c.id}`;
}

export function decodeCursor(value: string | null): LeadCursor | null | "invalid" {
  if (value === null || value === "") return null;
  const match = value.match(/^(\d{1,15})\.(\d{1,15})$/);
  return match ? { subscribedAt: Number(match[1]), id: Number(match[2]) } : "invalid";
}

/**
 * The SQL of one page of the filtered list. Raw SQL (docs/decisions/022-data-layer.md): its
 * condition is the workbench's filter condition, whose query plans tests/worker/leads-workbench.test.ts
 * pins (every filter a range on an index), and the keyset is a row-value comparison.
 */
export function leadPageQuery(filters: LeadFilters, cursor: LeadCursor | null, limit: number) {
  const where = filterCondition(filters);
  const after = cursor ? " AND (subscribed_at, id) < (?, ?)" : "";
  return {
    sql: `SELECT id, email, first_name, last_name, source, subscribed_at FROM leads WHERE ${where.sql}${after} ORDER BY subscribed_at DESC, id DESC LIMIT ?`,
    params: [...where.params, ...(cursor ? [cursor.subscribedAt, cursor.id] : []), limit],
  };
}

type LeadRow = { id: number; email: string; first_name: string; last_name: string | null; source: string; subscribed_at: number };

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
    leads: page.map((row) =>
      toPublicLead({
        id: row.id,
        email: row.email,
        firstName: row.first_name,
        lastName: row.last_name,
        source: row.source,
        subscribedAt: new Date(row.subscribed_at),
      }),
    ),
    next: rows.length > limit && last ? { subscribedAt: last.subscribed_at, id: last.id } : null,
  };
}
