/**
 * The `venture` field of the news, event and document forms (browser-safe): empty is the group's
 * own item, else a venture's id as the catalogue spells it; the server's parse also checks it
 * names a venture of the catalogue (withKnownVenture).
 */
import { z } from "zod";

/** A venture's id: lower-case letters, digits and single hyphens (it is the address /subsidiary/<id>). */
export const VENTURE_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** What a form says of a venture that is not one of the list's. */
export const UNKNOWN_VENTURE = "Please choose one of the ventures, or the group.";

/** The field: a venture's id, or null for the group. */
export const ventureField = () =>
  z
    .string()
    .trim()
    .optional()
    .refine((id) => !id || VENTURE_ID.test(id), UNKNOWN_VENTURE)
    .transform((id) => id || null);

/**
 * A form's schema that also checks its `venture` field names a venture of the catalogue (`ids`:
 * `ventureIds(db)`): the server's parse of the documents', news and events forms.
 */
export function withKnownVenture<S extends z.ZodTypeAny>(schema: S, ids: ReadonlySet<string>) {
  return schema.superRefine((value: { venture?: string | null }, ctx) => {
    if (value.venture && !ids.has(value.venture))
      ctx.addIssue({ code: "custom", path: ["venture"], message: UNKNOWN_VENTURE });
  });
}
