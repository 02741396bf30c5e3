/**
 * The one honeypot of the public forms (newsletter, contact): a text field hidden from people and
 * assistive technology that form-filling bots fill. A filled one gets the same answer as a person
 * and stores nothing.
 */
export const HONEYPOT_FIELD = "website";

/** Whether a posted honeypot value (a form's or a JSON body's) was filled. */
export function honeypotFilled(value: unknown): boolean {
  return typeof value === "string" && value.trim() !== "";
}
