/**
 * The leads CSV: every value double-quoted with quotes doubled, cells that a
 * spreadsheet would run as a formula prefixed with `'`, UTF-8 with a BOM, CRLF line ends.
 */
import { sql } from "drizzle-orm";
import { leads } from "~/db/schema";
import { leadPageQuery, type LeadCursor } from "~/features/leads/lead-list.server";
import { statement } from "~/utils/db.server";
import { auditStatement } from "~/features/admin/audit.server";
import { DEFAULT_FILTER, filterCondition, type LeadFilters } from "~/features/leads/lead-filters.server";

export const CSV_COLUMNS = ["Email", "First Name", "Last Name", "Source", "Subscribed At"] as const;
const BOM = "\uFEFF";
/**
 * Rows per D1 query (~90 KiB of CSV): the worker holds one page at a time whatever the table
 * holds (bench/leads.bench.mjs measures its heap at 10 000 and 100 000 leads).
 */
export const CSV_PAGE_SIZE = 1000;

/** First characters that make a spreadsheet read a cell as a formula. */
const FORMULA_START = new Set(["=", "+", "-", "@", "\t", "\r"]);

export function csvCell(value: string | null | undefined): string {
  if (!value) return '""';
  // Copies only when a cell needs it: the export formats every row of the table.
  const text = value.includes('"') ? value.replaceAll('"', '""') : value;
  return FORMULA_START.has(value[0]!) ? `"'${text}"` : `"${text}"`;
}

export function csvRow(values: readonly (string | null | undefined)[]): string {
  let line = csvCell(values[0]);
  for (let i = 1; i < values.length; i++) line += `,${csvCell(values[i])}`;
  return `${line}\r\n`;
}

export function csvFileName(now = new Date()): string {
  return `afx-leads-${now.toISOString().slice(0, 10)}.csv`;
}

/** The export's filters for its audit entry; a search may be an address or a name, so only its presence is kept. */
const filtersDetail = (f: LeadFilters) =>
  [`status=${f.status}`, f.source && `source=${f.source}`, f.from && `from=${f.from}`, f.to && `to=${f.to}`, f.q && "a search"].filter(Boolean).join(", ");

/**
 * Writes the audit entry of an export (who, when, which filters) when the filters select some
 * leads, in the same statement that looks: there is no export without leads. False when none.
 * Raw SQL (docs/decisions/024-data-layer.md): an INSERT … SELECT whose row exists only then.
 */
export async function auditLeadsExport(db: D1Database, actor: string, filters: LeadFilters, now = Date.now()): Promise<boolean> {
  const audit = auditStatement(db, { actor, action: "leads.export", target: "leads CSV", detail: filtersDetail(filters) }, now, {
    sql: "''",
    from: sql`SELECT 1 WHERE EXISTS (SELECT 1 FROM ${leads} WHERE ${filterCondition(filters)})`,
  });
  return (await audit.run()).meta.changes > 0;
}

/** One export row as D1 returns it with `.raw()`: the list page's columns (lead-list.server.ts). */
type ExportRow = [id: number, email: string, firstName: string, lastName: string | null, source: string, subscribedAt: number];

/**
 * A page of the export after `cursor`, newest first: the list's own page query (its plans pinned
 * by the workbench test, every page a range of its own rows however deep), read as D1's raw
 * arrays rather than Drizzle's objects and Dates: no per-row objects beyond what D1 hands over.
 */
function exportPage(db: D1Database, size: number, cursor: LeadCursor | null, filters: LeadFilters): Promise<ExportRow[]> {
  return statement(db, leadPageQuery(filters, cursor, size)).raw<ExportRow>();
}

/**
 * The whole export, newest first: one D1 page per pull, encoded as one chunk. highWaterMark 0
 * queues nothing ahead of the reader, so a page is read only when the client has taken the last
 * one, and nothing but the keyset cursor outlives a pull.
 */
export function leadsCsvStream(
  db: D1Database,
  { pageSize = CSV_PAGE_SIZE, filters = { status: DEFAULT_FILTER } }: { pageSize?: number; filters?: LeadFilters } = {},
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: LeadCursor | null = null;
  let first = true;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const rows = await exportPage(db, pageSize, cursor, filters);
        let text = first ? BOM + csvRow(CSV_COLUMNS) : "";
        first = false;
        for (const [, email, firstName, lastName, source, subscribedAt] of rows) {
          text += csvRow([email, firstName, lastName, source, new Date(subscribedAt).toISOString()]);
        }
        if (text) controller.enqueue(encoder.encode(text));
        const last = rows.at(-1);
        if (!last || rows.length < pageSize) controller.close();
        else cursor = { subscribedAt: last[5], id: last[0] };
      },
    },
    { highWaterMark: 0 },
  );
}
