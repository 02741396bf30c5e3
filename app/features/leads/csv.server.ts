/**
 * The leads CSV: every value double-quoted with quotes doubled, cells that a
 * spreadsheet would run as a formula prefixed with `'`, UTF-8 with a BOM, CRLF line ends.
 */
import { sql } from "drizzle-orm";
import { leads } from "~/db/schema";
import { exportPage, LISTED, type LeadCursor } from "~/features/leads/lead-list.server";
import { batch, type Db } from "~/utils/db.server";
import { auditStatement } from "~/features/admin/audit.server";
import { DEFAULT_FILTER, filterCondition, type LeadFilters } from "~/features/leads/lead-filters.server";

/** The CSV's header: the listed fields' headings, in their order (features/leads/lead-list.server.ts). */
export const CSV_HEADER = Object.values(LISTED);
const CSV_KEYS = Object.keys(LISTED) as (keyof typeof LISTED)[];
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

/** A value as its cell's text: times in ISO 8601, UTC. */
const cell = (value: string | Date | null) => (value instanceof Date ? value.toISOString() : value);

export function csvFileName(now = new Date()): string {
  return `afx-leads-${now.toISOString().slice(0, 10)}.csv`;
}

/** The export's filters for its audit entry; a search may be an address or a name, so only its presence is kept. */
const filtersDetail = (f: LeadFilters) =>
  [
    `status=${f.status}`,
    f.source && `source=${f.source}`,
    f.from && `from=${f.from}`,
    f.to && `to=${f.to}`,
    f.q && "a search",
  ]
    .filter(Boolean)
    .join(", ");

/**
 * Writes the audit entry of an export (who, when, which filters) when the filters select some
 * leads, in the same statement that looks: there is no export without leads. False when none.
 * Raw SQL (docs/decisions/024-data-layer.md): an INSERT … SELECT whose row exists only then.
 */
export async function auditLeadsExport(
  db: Db,
  actor: string,
  filters: LeadFilters,
  now = Date.now(),
): Promise<boolean> {
  const audit = auditStatement(
    db,
    { actor, action: "leads.export", target: "leads CSV", detail: filtersDetail(filters) },
    now,
    {
      sql: "''",
      from: sql`SELECT 1 WHERE EXISTS (SELECT 1 FROM ${leads} WHERE ${filterCondition(filters)})`,
    },
  );
  const [written] = await batch(db, [audit]);
  return written.meta.changes > 0;
}

/**
 * A CSV read page by page (the leads export, the hand-off's files): one D1 page per pull, encoded
 * as one chunk, `header` first (after `bom`). highWaterMark 0 queues nothing ahead of the reader,
 * so a page is read only when the client has taken the last one, and nothing but the cursor
 * outlives a pull. `page(cursor)` reads up to `pageSize` rows after the cursor (null: the first).
 */
export function pagedCsvStream<Row, Cursor>({
  header,
  bom = false,
  pageSize,
  page,
  cells,
  cursorOf,
}: {
  header: readonly string[];
  bom?: boolean;
  pageSize: number;
  page: (cursor: Cursor | null) => Promise<readonly Row[]>;
  cells: (row: Row) => readonly (string | null | undefined)[];
  cursorOf: (last: Row) => Cursor;
}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: Cursor | null = null;
  let first = true;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const rows = await page(cursor);
        let text = first ? (bom ? BOM : "") + csvRow(header) : "";
        first = false;
        for (const row of rows) text += csvRow(cells(row));
        if (text) controller.enqueue(encoder.encode(text));
        const last = rows.at(-1);
        if (!last || rows.length < pageSize) controller.close();
        else cursor = cursorOf(last);
      },
    },
    { highWaterMark: 0 },
  );
}

/** The whole leads export, newest first, with a BOM (spreadsheets then read it as UTF-8). */
export function leadsCsvStream(
  db: Db,
  { pageSize = CSV_PAGE_SIZE, filters = { status: DEFAULT_FILTER } }: { pageSize?: number; filters?: LeadFilters } = {},
): ReadableStream<Uint8Array> {
  return pagedCsvStream({
    header: CSV_HEADER,
    bom: true,
    pageSize,
    page: (cursor: LeadCursor | null) => exportPage(db, filters, cursor, pageSize),
    cells: (lead) => CSV_KEYS.map((key) => cell(lead[key])),
    cursorOf: (last) => ({ subscribedAt: last.subscribedAt.getTime(), id: last.id }),
  });
}
