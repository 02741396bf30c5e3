/**
 * The leads workbench's filters (docs/decisions/017-leads-workbench.md): search by e-mail or name
 * prefix, source, status and a date range, read from the URL and turned into one Drizzle condition
 * that the list, its counts and the CSV share. Every filter is a range on an index of migrations/0006
 * (tests/worker/leads-workbench.test.ts reads the query plans).
 */
import { and, eq, gte, lt, lte, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { leadDailyCounts, leads, LEAD_STATUSES, LEAD_TOPICS } from "~/db/schema";
import { DEFAULT_FILTER, type FilterErrors, type LeadFilter, type LeadFilters } from "~/features/leads/lead-filter";

export { DEFAULT_FILTER, type FilterErrors, type LeadFilter, type LeadFilters };
import { LEAD_LIMITS } from "~/features/leads/newsletter";
import { tooLongMessage } from "~/features/forms/text-field";

const DAY_MS = 24 * 60 * 60 * 1000;

/** `?status=` of the leads API and exports: absent = confirmed; anything unknown is refused (null). */
export function parseLeadFilter(value: string | null): LeadFilter | null {
  if (value === null || value === "") return DEFAULT_FILTER;
  return value === "all" || (LEAD_STATUSES as readonly string[]).includes(value) ? (value as LeadFilter) : null;
}

export const STATUS_PARAM_ERROR = "status must be one of confirmed, pending, unsubscribed, undeliverable or all";

/** Above every character: `prefix <= x < prefix + TOP` is "x starts with prefix" in SQLite's byte order. */
const TOP = "\u{10FFFF}";

const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Use a date like 2026-11-24.")
  .refine(
    (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    "Not a calendar date.",
  );
const empty = (v: unknown) => (v === "" ? undefined : v);

const schema = z
  .object({
    q: z.preprocess(
      empty,
      z.string().trim().toLowerCase().max(LEAD_LIMITS.email, tooLongMessage("search", LEAD_LIMITS.email)).optional(),
    ),
    source: z.preprocess(
      empty,
      z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/, "Not a source name.")
        .optional(),
    ),
    status: z.preprocess(
      empty,
      z
        .enum([...LEAD_STATUSES, "all"], {
          message: "Please choose confirmed, pending, unsubscribed, undeliverable or all.",
        })
        .default(DEFAULT_FILTER),
    ),
    from: z.preprocess(empty, isoDay.optional()),
    to: z.preprocess(empty, isoDay.optional()),
    topic: z.preprocess(empty, z.enum(LEAD_TOPICS, { message: "Please choose newsletter or alerts." }).optional()),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, {
    message: "The start date is after the end date.",
    path: ["to"],
  });

export function parseLeadFilters(
  params: URLSearchParams,
): { ok: true; filters: LeadFilters } | { ok: false; errors: FilterErrors } {
  const raw = Object.fromEntries(
    ["q", "source", "status", "from", "to", "topic"].map((k) => [k, params.get(k) ?? undefined]),
  );
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, filters: parsed.data as LeadFilters };
  const errors: FilterErrors = {};
  for (const issue of parsed.error.issues) errors[issue.path[0] as keyof LeadFilters] ??= issue.message;
  return { ok: false, errors };
}

/** The filters as URL parameters (defaults left out), for the CSV link and the page links. */
export function filterParams(f: LeadFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (f.q) params.set("q", f.q);
  if (f.source) params.set("source", f.source);
  if (f.status !== DEFAULT_FILTER) params.set("status", f.status);
  if (f.from) params.set("from", f.from);
  if (f.to) params.set("to", f.to);
  if (f.topic && f.topic !== "newsletter") params.set("topic", f.topic);
  return params;
}

export const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** True when the filters select whole days only: the counts can then be read from lead_daily_counts. */
export const countableByDay = (f: LeadFilters) => !f.q && topicOf(f) === "newsletter";

/** The filter's topic: the newsletter unless it names another (lead_daily_counts counts the newsletter's alone). */
const topicOf = (f: LeadFilters) => f.topic ?? "newsletter";

/** Status and source on `lead_daily_counts`. */
function statusAndSource(table: typeof leadDailyCounts, f: LeadFilters, withStatus: boolean) {
  return [
    withStatus && f.status !== "all" ? eq(table.status, f.status) : undefined,
    f.source ? eq(table.source, f.source) : undefined,
  ];
}

/** Conditions joined with AND (true for none). */
const all = (conditions: (SQL | undefined)[]): SQL => and(...conditions) ?? sql`1`;

/**
 * A column as a search's other terms name it: `+column`, which SQLite uses no index for, so the
 * search's prefix ranges are the access path and a search reads its own matches (MULTI-INDEX OR).
 * Otherwise the planner walked the whole status (or topic, source, date) range newest first,
 * checking each row against the prefix: a search matching nobody read every confirmed lead, about
 * a second at 100 000 leads (bench/at-size.mjs, docs/decisions/126).
 */
export const searchSide = (f: LeadFilters, column: SQLiteColumn): SQL => (f.q ? sql`+${column}` : sql`${column}`);

/**
 * The condition on `leads` rows matching the filters; `withStatus: false` ignores the status
 * filter (the per-status counts). Each filter is a range on an index, a search's prefixes before
 * the rest (searchSide): the query-plan test pins it.
 */
export function filterCondition(f: LeadFilters, { withStatus = true } = {}): SQL {
  // E-mails are stored in lower case; names are matched through their lower-case indexes.
  const email = sql`${leads.email}`;
  const ranges = f.q
    ? f.q.includes("@")
      ? [email]
      : [email, sql`lower(${leads.firstName})`, sql`lower(${leads.lastName})`]
    : [];
  const side = (column: SQLiteColumn) => searchSide(f, column);
  return all([
    eq(side(leads.topic), topicOf(f)),
    withStatus && f.status !== "all" ? eq(side(leads.status), f.status) : undefined,
    f.source ? eq(side(leads.source), f.source) : undefined,
    // Milliseconds, as the column stores them (a template binds the value as given).
    f.from ? gte(side(leads.subscribedAt), dayStart(f.from)) : undefined,
    f.to ? lt(side(leads.subscribedAt), dayStart(f.to) + DAY_MS) : undefined,
    f.q ? or(...ranges.map((column) => and(gte(column, f.q!), lt(column, f.q! + TOP)))) : undefined,
  ]);
}

/** The same condition on `lead_daily_counts` (status, source, whole days); only when countableByDay. */
export function dailyCountCondition(f: LeadFilters, { withStatus = true } = {}): SQL {
  return all([
    ...statusAndSource(leadDailyCounts, f, withStatus),
    f.from ? gte(leadDailyCounts.day, dayStart(f.from) / DAY_MS) : undefined,
    f.to ? lte(leadDailyCounts.day, dayStart(f.to) / DAY_MS) : undefined,
  ]);
}
