/**
 * Keyed hashes of e-mail addresses, for the records that must recognise an address without
 * keeping it (the suppression list, the confirmation mails' lifetime count). The address is
 * folded first, so that one mailbox's spellings share one entry: lower case, the `+tag` dropped
 * (every provider that offers sub-addressing uses `+`; at one that does not, two people at
 * `a+b@` and `a@` share an entry, which errs on the side of mailing less), and, at Gmail, whose
 * documented rule is that dots in the name do not matter, the dots dropped and `googlemail.com`
 * read as `gmail.com`.
 */
import { getConfig } from "~/utils/config.server";
import { hmacSign } from "~/utils/crypto.server";

/** How addresses are compared everywhere else (records of a person): trimmed, lower case. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

// Providers that document that dots in the local part are ignored.
const DOTS_IGNORED = new Set(["gmail.com"]);
const ALIASES: Record<string, string> = { "googlemail.com": "gmail.com" };

/** The mailbox an address delivers to, as far as its spelling tells. */
export function foldEmail(email: string): string {
  const address = normaliseEmail(email);
  const at = address.lastIndexOf("@");
  if (at < 1) return address;
  let local = address.slice(0, at);
  const domain = ALIASES[address.slice(at + 1)] ?? address.slice(at + 1);
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  if (DOTS_IGNORED.has(domain)) local = local.replaceAll(".", "") || local;
  return `${local}@${domain}`;
}

/** What a hash stands for: the same address hashes differently per purpose. */
export type AddressPurpose = "suppressed-email" | "confirmation-count";

/**
 * The keyed hash of each spelling of `email` (folded, then as typed if different) under every
 * configured secret, newest first: the first is the one to write, any of them finds an entry.
 */
export async function addressHashes(env: Env, purpose: AddressPurpose, email: string, { asTyped = false } = {}): Promise<string[]> {
  const secrets = getConfig(env).sessionSecrets;
  if (!secrets.length) throw new Error("SESSION_SECRET must be set to key address hashes");
  const spellings = [...new Set([foldEmail(email), ...(asTyped ? [normaliseEmail(email)] : [])])];
  return Promise.all(secrets.flatMap((s) => spellings.map((a) => hmacSign(s, `${purpose}:${a}`))));
}
