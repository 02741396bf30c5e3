/**
 * The admins' reads of the leads (docs/decisions/017-leads-workbench.md): the workbench's and
 * `GET /api/leads`'s newest-first keyset pages, the CSV's pages, and the lead as they list it.
 */
import { and, desc, isNull, sql, type SQL } from "drizzle-orm";
import { QueryBuilder, type SQLiteSelectQueryBuilder } from "drizzle-orm/sqlite-core";
import { leads, type Lead } from "~/db/schema";
import { DEFAULT_FILTER, filterCondition, searchSide, type LeadFilters } from "~/features/leads/lead-filters.server";
import { together, type Db } from "~/utils/db.server";
import { type EveryKeyDecided } from "~/utils/decided";
import { keysetCursor } from "~/utils/keyset-cursor";

/** GET /api/leads page size. */
export const LIST_LIMIT = { default: 100, max: 1000 } as const;

/**
 * The lead as it is listed: the workbench and the dashboard's recent list, `GET /api/leads`, and
 * the CSV, whose column each names (its heading). The one list of a listed lead's fields: a field
 * added here is read, sent and exported by all of them (docs/decisions/065-one-lead-shape-one-db.md).
 */
export const LISTED = {
  email: "Email",
  firstName: "First Name",
  lastName: "Last Name",
  source: "Source",
  subscribedAt: "Subscribed At",
} as const satisfies Partial<Record<keyof Lead, string>>;

/** The columns of a lead that are not listed, and why: with LISTED, every column is decided. */
export const NOT_LISTED = {
  id: "the row's number: the workbench links by it, the API and the CSV leave it out",
  userAgent: "the signup's browser: evidence of the consent, on the person export only",
  referrer: "where the signup came from: on the person export only",
  clientTimestamp: "the browser's own clock at signup: on the person export only",
  pagePath: "the page of the signup: on the lead's own page",
  status: "the workbench lists one status at a time (its filter); the lead's page shows it",
  consentMethod: "on the lead's own page and the person export",
  consentVersion: "on the lead's own page and the person export",
  confirmedAt: "on the lead's own page",
  unsubscribedAt: "on the lead's own page",
  suppressedAt: "such records are left out of the CSV and the export altogether",
  topic: "the workbench lists one topic at a time (its filter); the lead's page shows every topic",
  handedOffAt: "the hand-off page's concern (/admin/subscribers/handoff): on the lead's page and the person export",
  alertVentures: "an alerts subscriber's own choice: on the lead's page and the person export",
  alertKinds: "an alerts subscriber's own choice: on the lead's page and the person export",
  eventReminders: "an alerts lead's consent to event reminders: on the lead's own page and the person export",
} as const satisfies Partial<Record<keyof Lead, string>>;

/** A new column of leads fails to compile here until LISTED or NOT_LISTED decides it. */
export const EVERY_LEAD_COLUMN_LISTED_OR_NOT: EveryKeyDecided<
  keyof Lead,
  keyof typeof LISTED | keyof typeof NOT_LISTED
> = true;

export type ListedKey = keyof typeof LISTED;
const LISTED_KEYS = Object.keys(LISTED) as ListedKey[];

/** A listed lead as read: the schema's own types (`subscribedAt` a Date). */
export type ListedLead = Pick<Lead, "id" | ListedKey>;

/** A listed lead as JSON shows it (`GET /api/leads`, the loaders): times in ISO 8601, UTC. */
export type PublicLead = {
  [K in keyof ListedLead]: ListedLead[K] extends infer V ? (V extends Date ? string : V) : never;
};

export function toPublicLead(lead: ListedLead): PublicLead {
  return Object.fromEntries(
    Object.entries(lead).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value]),
  ) as PublicLead;
}

/** The listed fields of a row that has them (and maybe more), e.g. a signup as stored. */
export const listed = (id: number, row: Pick<Lead, ListedKey>): ListedLead =>
  ({ id, ...Object.fromEntries(LISTED_KEYS.map((key) => [key, row[key]])) }) as ListedLead;

/** Keyset position: the last lead of a page (newest first). */
export interface LeadCursor {
  subscribedAt: number;
  id: number;
}

export const { encode: encodeCursor, decode: decodeCursor } = keysetCursor("subscribedAt");

/** A page's columns: the id and the listed fields, from the schema's table. */
export const PAGE_COLUMNS = Object.fromEntries([
  ["id", leads.id],
  ...LISTED_KEYS.map((key) => [key, leads[key]]),
]) as Pick<typeof leads, "id" | ListedKey>;

/**
 * One page of the filtered list, newest first, after `cursor`: the filters are index ranges
 * (lead-filters.server.ts) and the keyset a row-value comparison on the same index, so a page
 * reads its own rows only. tests/worker/leads-workbench.test.ts pins the plans of `leadPageQuery`,
 * the SQL of this very query.
 */
function leadPage<T extends SQLiteSelectQueryBuilder>(
  select: T,
  filters: LeadFilters,
  cursor: LeadCursor | null,
  limit: number,
  also?: SQL,
): T {
  // Row values: the builder has no form for them; still over the schema's columns, values bound.
  // A search's keyset is no index range either (searchSide): the search reads its matches.
  const [at, id] = [searchSide(filters, leads.subscribedAt), searchSide(filters, leads.id)];
  const after = cursor ? sql`(${at}, ${id}) < (${cursor.subscribedAt}, ${cursor.id})` : undefined;
  return select
    .where(and(filterCondition(filters), after, also))
    .orderBy(desc(leads.subscribedAt), desc(leads.id))
    .limit(limit);
}

/**
 * The CSV leaves out the records of a suppressed mailbox (docs/decisions/060): a check on the rows
 * the index already chose, so the plans stay those of the list.
 */
const exported = isNull(leads.suppressedAt);

/** One page of the CSV, newest first after `cursor`: the listed fields, read by name. */
export function exportPage(
  db: Db,
  filters: LeadFilters,
  cursor: LeadCursor | null,
  limit: number,
): Promise<ListedLead[]> {
  return leadPage(db.select(PAGE_COLUMNS).from(leads).$dynamic(), filters, cursor, limit, exported);
}

/** The SQL of `exportPage`, built the same way (the query-plan test reads it). */
export function leadPageQuery(filters: LeadFilters, cursor: LeadCursor | null, limit: number) {
  return leadPage(new QueryBuilder().select(PAGE_COLUMNS).from(leads).$dynamic(), filters, cursor, limit, exported);
}

/** One page of the leads the filters select, newest first, after `cursor`; `next` is set when more may follow. */
export async function listLeads(
  db: Db,
  {
    limit,
    cursor = null,
    filters = { status: DEFAULT_FILTER },
  }: { limit: number; cursor?: LeadCursor | null; filters?: LeadFilters },
): Promise<{ leads: PublicLead[]; next: LeadCursor | null }> {
  const [rows] = await together(db, [
    leadPage(db.select(PAGE_COLUMNS).from(leads).$dynamic(), filters, cursor, limit + 1),
  ]);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    leads: page.map(toPublicLead),
    next: rows.length > limit && last ? { subscribedAt: last.subscribedAt.getTime(), id: last.id } : null,
  };
}
