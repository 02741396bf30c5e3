/**
 * What a revision keeps of a venture: its editable fields as the change left them (docs/ventures.md).
 * "Restore" writes these back, itself a new revision.
 */
import type { VentureRow } from "~/db/schema";
import type { EveryKeyDecided } from "~/utils/decided";

export const REVISED_FIELDS = [
  "name",
  "tagline",
  "description",
  "stage",
  "colour",
  "icon",
  "logo",
  "logoWidth",
  "logoHeight",
  "website",
  "video",
  "shown",
] as const satisfies readonly (keyof VentureRow)[];

/** What a revision does not keep: the key, the place in the order (a move is not an edit), the time. */
export const NOT_REVISED = ["id", "position", "updatedAt"] as const satisfies readonly (keyof VentureRow)[];

/**
 * Every column of `ventures` is revised or not: a new column fails `npm run typecheck` here until
 * it is decided (an edit of a field left out of REVISED_FIELDS is never saved: changedFields
 * compares only these). A revised field then must be given wherever a venture is made (the seed,
 * createVenture: RevisionState requires it).
 */
export const EVERY_VENTURE_COLUMN_REVISED_OR_NOT: EveryKeyDecided<
  keyof VentureRow,
  (typeof REVISED_FIELDS)[number] | (typeof NOT_REVISED)[number]
> = true;

export type RevisionState = Pick<VentureRow, (typeof REVISED_FIELDS)[number]>;

export function revisionState(v: RevisionState): RevisionState {
  return Object.fromEntries(REVISED_FIELDS.map((f) => [f, v[f]])) as RevisionState;
}

/** The fields whose values differ between two states, in REVISED_FIELDS's order. */
export function changedFields(before: RevisionState, after: RevisionState): string[] {
  return REVISED_FIELDS.filter((f) => before[f] !== after[f]);
}
