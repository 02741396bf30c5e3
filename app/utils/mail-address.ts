/**
 * E-mail address rules: the limits and normalisation of every form and API's e-mail field (its
 * zod schema is email-schema.ts), and what the configuration (MAIL_FROM) and the mail feature
 * accept. No zod here: the newsletter signup's chunk reads EMAIL_MAX_LENGTH on every page, and
 * zod's module would come with it (its top level has side effects a bundler keeps).
 */
/** The longest address: RFC 5321's forward path (256 octets with its brackets), and the product's limit. */
export const EMAIL_MAX_LENGTH = 254;

/** How an address is compared and stored everywhere: trimmed and lower-cased. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

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
