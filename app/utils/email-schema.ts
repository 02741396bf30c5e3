// The e-mail field's zod schema: mail-address.ts's rules, for the forms and APIs that parse one.
import { z } from "zod";
import { EMAIL_MAX_LENGTH } from "~/utils/mail-address";

/**
 * The e-mail field of every form and API: normalised (normaliseEmail), at most EMAIL_MAX_LENGTH
 * characters, an address. `message` is what the visitor is told for a wrong one, `required` for
 * none (the same unless given).
 */
export function emailSchema(message = "Please enter a valid email address.", required = message) {
  // trim() and toLowerCase() are normaliseEmail, kept as string checks so that conform still
  // reads the field's constraints from the schema.
  return z
    .string({ required_error: required, invalid_type_error: message })
    .trim()
    .toLowerCase()
    .max(EMAIL_MAX_LENGTH, message)
    .email(message);
}
