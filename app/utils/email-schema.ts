// The e-mail field's zod schema: mail-address.ts's rules, for the forms and APIs that parse one.
import { z } from "zod";
import { EMAIL_MAX_LENGTH } from "~/utils/mail-address";

export const INVALID_EMAIL = "Please enter a valid email address.";

/**
 * Why an address (trimmed, lower-cased) cannot be taken, or its deliverable form: the domain in
 * ASCII (an internationalised domain as punycode, the form mail is sent to). The reason is said,
 * never guessed around: an over-long paste is refused, not cut; a letter before the @ that our
 * mail path cannot carry (it speaks plain SMTP, without SMTPUTF8) is named.
 */
export function deliverableAddress(value: string): { address: string } | { reason: string } {
  if (value.length > EMAIL_MAX_LENGTH) return { reason: `An address can be at most ${EMAIL_MAX_LENGTH} characters.` };
  const at = value.lastIndexOf("@");
  if (at < 1) return { reason: "" };
  const local = value.slice(0, at);
  const foreign = /[^\x20-\x7e]/u.exec(local)?.[0];
  if (foreign) return { reason: `Our mail service cannot deliver to “${foreign}” before the @.` };
  let domain = value.slice(at + 1);
  if (/[^\x20-\x7e]/u.test(domain)) {
    // The URL parser's IDNA mapping: the same ASCII form a browser sends to.
    try {
      domain = /^[^\s/\\?#:@[\]]+$/.test(domain) ? new URL(`http://${domain}`).hostname : "";
    } catch {
      domain = "";
    }
    if (!domain) return { reason: "Its domain, after the @, is not one mail can be sent to." };
  }
  const address = `${local}@${domain}`;
  if (address.length > EMAIL_MAX_LENGTH) return { reason: `An address can be at most ${EMAIL_MAX_LENGTH} characters.` };
  return z.string().email().safeParse(address).success ? { address } : { reason: "" };
}

/**
 * The e-mail field of every form and API: normalised (normaliseEmail), its domain in ASCII, at
 * most EMAIL_MAX_LENGTH characters, an address. `message` is what the visitor is told for a wrong
 * one (the reason follows it when there is one to give), `required` for none (the same unless given).
 */
export function emailSchema(message = INVALID_EMAIL, required = message) {
  return z
    .string({ required_error: required, invalid_type_error: message })
    .trim()
    .toLowerCase()
    .transform((value, ctx) => {
      const result = deliverableAddress(value);
      if ("address" in result) return result.address;
      ctx.addIssue({ code: "custom", message: value === "" ? required : `${message} ${result.reason}`.trim() });
      return z.NEVER;
    });
}
