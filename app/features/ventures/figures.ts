/**
 * The figures the portfolio and investors pages show (docs/decisions/102): each follows the
 * catalogue (the number of shown ventures) or is one of the group's key facts an admin edits on
 * /admin/ventures, found by its label (seeded by migrations/0023 with the pages' former numbers).
 * Browser-safe: the pages draw them from their loaders' facts.
 */
import type { KeyFact } from "~/db/schema";
import { formatLongDate } from "~/utils/format";

/** The labels of the group's key facts the pages' tiles read. */
export const FIGURE_LABELS = { ventures: "Active Ventures", sectors: "Industry Sectors" } as const;

type Fact = Pick<KeyFact, "id" | "label" | "value" | "asOf" | "source">;

/** The group's newest key fact with this label (case and spaces aside), or undefined. */
export function figureFact<F extends Fact>(facts: readonly F[], label: string): F | undefined {
  const wanted = label.trim().toLowerCase();
  return facts
    .filter((f) => f.label.trim().toLowerCase() === wanted)
    .sort((a, b) => b.asOf.localeCompare(a.asOf) || b.id - a.id)[0];
}

/** A tile: a figure and its label, and for a key fact its date and source. */
export interface FigureTile {
  value: string;
  label: string;
  asOf?: string;
  source?: string;
}

/** A key fact as a tile, its as-of date written out. */
export const factTile = (f: Fact): FigureTile => ({
  value: f.value,
  label: f.label,
  asOf: formatLongDate(new Date(`${f.asOf}T00:00:00Z`)),
  source: f.source,
});
