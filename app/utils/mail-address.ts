/**
 * E-mail address rules: the one e-mail field of every form and API, and what the configuration
 * (MAIL_FROM) and the mail feature accept.
 */
import { z } from "zod";

/** The longest address: RFC 5321's forward path (256 octets with its brackets), and the product's limit. */
export const EMAIL_MAX_LENGTH = 254;

/** How an address is compared and stored everywhere: trimmed and lower-cased. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

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

const ADDRESS = /^[^\s@<>()",;:\\[\]]+@[^\s@<>()",;:\\[\]]+\.[^\s@<>()",;:\\[\]]+$/;

/** A bare address: what SMTP's RCPT TO and the To header may carry. */
export function isMailAddress(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && ADDRESS.test(value);
}

/** `Name <address>` or a bare address; the name without quotes or line breaks (written as is). */
export function parseMailFrom(value: string): { name?: string; email: string } | null {
  const match = /^\s*(?:([^<>"\r\n]*?)\s*<([^<>\s]+)>|([^<>\s]+))\s*$/.exec(value);
  const email = match?.[2] ?? match?.[3];
  if (!email || !isMailAddress(email)) return null;
  const name = match?.[1]?.trim();
  return name ? { name, email } : { email };
}

const LOOPBACK = /^(localhost|.*\.localhost|127(\.\d{1,3}){3}|0\.0\.0\.0|\[?::1?\]?)$/i;
// Reserved for documentation and tests (RFC 2606, RFC 6761): never a real provider or sender.
const EXAMPLE_DOMAIN = /(^|\.)(example\.(com|net|org)|example|test|invalid|localhost)$/i;

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.test(host.trim());
}

export function isExampleDomain(domain: string): boolean {
  return EXAMPLE_DOMAIN.test(domain.trim().replace(/\.$/, ""));
}
