/**
 * The pipeline's CSV (`/admin/investors.csv`): one row per investor and venture, formula-safe with
 * the leads CSV's own cells (features/leads/csv.server.ts), UTF-8 with a BOM, CRLF line ends.
 */
import { csvRow } from "~/features/leads/csv.server";
import type { PipelineEntry } from "./pipeline";

export const PIPELINE_CSV_HEADER = ["Email", "Name", "Firm", "Venture", "Stage", "Rooms", "Last activity"] as const;

export function pipelineCsv(entries: readonly PipelineEntry[]): string {
  let out = `\uFEFF${csvRow(PIPELINE_CSV_HEADER)}`;
  for (const e of entries)
    out += csvRow([
      e.email,
      e.name,
      e.firm,
      e.ventureName,
      e.stage,
      e.rooms.join("; "),
      new Date(e.lastActivity).toISOString(),
    ]);
  return out;
}

export const pipelineCsvFileName = (now = new Date()) => `afx-investors-${now.toISOString().slice(0, 10)}.csv`;
