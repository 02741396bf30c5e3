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

/** Each field as the admin's page and toasts name it (never its column: "logoWidth"). */
const FIELD_WORDS: Record<(typeof REVISED_FIELDS)[number], string> = {
  name: "name",
  tagline: "tagline",
  description: "description",
  stage: "stage",
  colour: "colour",
  icon: "icon",
  logo: "logo",
  logoWidth: "logo",
  logoHeight: "logo",
  website: "website",
  video: "video",
  shown: "shown or hidden",
};

/** The changed fields in words, each once: "tagline, stage, logo". */
export function changedWords(changed: readonly string[]): string {
  const words = changed.map((f) => FIELD_WORDS[f as keyof typeof FIELD_WORDS] ?? f);
  return [...new Set(words)].join(", ");
}

/** Who made a revision and what it did, in words: "Starting catalogue · Created", "ada@… · Changed tagline, logo". */
export function revisionWords(r: { revisedBy: string; changed: string }): string {
  const who = r.revisedBy === "seed" ? "Starting catalogue" : r.revisedBy;
  const what = r.changed === "created" ? "Created" : `Changed ${changedWords(r.changed.split(","))}`;
  return `${who} · ${what}`;
}

/** The fields a venture cannot be without (the edit form refuses them empty), which a restore keeps. */
export const REQUIRED_FIELDS = ["name", "tagline", "description"] as const satisfies readonly (keyof RevisionState)[];
