/**
 * The one rule of a form's text field, and the site's one wording of its errors: "Please enter a
 * title." when it is missing, "Please keep the title to 140 characters." when it is too long (a
 * choice's error reads "Please choose …"). Every form schema builds its text fields here.
 * Browser-safe: conform checks the same rule in the browser as the action on the server.
 */
import { z } from "zod";
import { formatInteger } from "~/utils/format";

/** "Please enter a title." ("an" before a vowel: "an id"); pass `missing` where that reads wrong. */
export const missingMessage = (label: string) => `Please enter ${/^[aeiou]/i.test(label) ? "an" : "a"} ${label}.`;

/** "Please keep the title to 140 characters." */
export const tooLongMessage = (label: string, max: number) =>
  `Please keep the ${label} to ${formatInteger(max)} characters.`;

/** A field that must be filled: trimmed, at least one character, at most `max`. */
export const requiredText = (label: string, max: number, missing = missingMessage(label)) =>
  z.string({ required_error: missing }).trim().min(1, missing).max(max, tooLongMessage(label, max));

/** A field that may be left empty: trimmed, at most `max`; absent is "". */
export const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, tooLongMessage(label, max))
    .optional()
    .transform((v) => v ?? "");
