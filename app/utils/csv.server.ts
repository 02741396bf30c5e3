/**
 * The leads CSV of DESIGN.md: every value double-quoted with quotes doubled, cells that a
 * spreadsheet would run as a formula prefixed with `'`, UTF-8 with a BOM, CRLF line ends.
 */
import { listLeads, type LeadCursor, type PublicLead } from "~/utils/leads.server";

export const CSV_COLUMNS = ["Email", "First Name", "Last Name", "Source", "Subscribed At"] as const;
const BOM = "\uFEFF";
/** Rows per D1 query: memory stays at one page whatever the table holds. */
export const CSV_PAGE_SIZE = 1000;

export function csvCell(value: string | null | undefined): string {
  const text = value ?? "";
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replaceAll('"', '""')}"`;
}

export function csvRow(values: readonly (string | null | undefined)[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}

export function leadCsvRow(lead: PublicLead): string {
  return csvRow([lead.email, lead.firstName, lead.lastName, lead.source, lead.subscribedAt]);
}

export function csvFileName(now = new Date()): string {
  return `afx-leads-${now.toISOString().slice(0, 10)}.csv`;
}

/** The whole export, newest first, read from D1 one page per pull (so only as fast as it is read). */
export function leadsCsvStream(db: D1Database, pageSize = CSV_PAGE_SIZE): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: LeadCursor | null = null;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(BOM + csvRow(CSV_COLUMNS)));
        return;
      }
      const page = await listLeads(db, { limit: pageSize, cursor });
      if (page.leads.length > 0) controller.enqueue(encoder.encode(page.leads.map(leadCsvRow).join("")));
      if (page.next) cursor = page.next;
      else controller.close();
    },
  });
}
