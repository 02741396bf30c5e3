/**
 * What a revision keeps of a venture: its editable fields as the change left them (docs/ventures.md).
 * "Restore" writes these back, itself a new revision.
 */
import type { VentureRow } from "~/db/schema";

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

export type RevisionState = Pick<VentureRow, (typeof REVISED_FIELDS)[number]>;

export function revisionState(v: RevisionState): RevisionState {
  return Object.fromEntries(REVISED_FIELDS.map((f) => [f, v[f]])) as RevisionState;
}

/** The fields whose values differ between two states, in REVISED_FIELDS's order. */
export function changedFields(before: RevisionState, after: RevisionState): string[] {
  return REVISED_FIELDS.filter((f) => before[f] !== after[f]);
}
