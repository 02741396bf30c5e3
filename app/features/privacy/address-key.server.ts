/**
 * Keyed hashes of e-mail addresses, for the records that must recognise an address without
 * keeping it (the suppression list, the confirmation mails' lifetime count). The address is
 * folded first, so that one mailbox's spellings share one entry: lower case, the `+tag` dropped
 * (every provider that offers sub-addressing uses `+`; at one that does not, two people at
 * `a+b@` and `a@` share an entry, which errs on the side of mailing less), and, at Gmail, whose
 * documented rule is that dots in the name do not matter, the dots dropped and `googlemail.com`
 * read as `gmail.com`.
 */
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { hmacSign } from "~/utils/crypto.server";
import { legacyMailSecrets, mailKeys } from "~/features/mail/keys.server";
import { normaliseEmail } from "~/utils/mail-address";

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

/**
 * foldEmail in SQL, over a column of normalised addresses with one `@` (the e-mail field's rule),
 * built from the same two tables, to find the stored spellings of a mailbox (the list's entries of
 * a suppressed address). tests/server/privacy-folds.test.ts holds the two to the same answers.
 */
export function foldEmailSql(column: SQLWrapper): SQL {
  const at = sql`instr(${column}, '@')`;
  const rawDomain = sql`substr(${column}, ${at} + 1)`;
  const aliases = Object.entries(ALIASES).map(([from, to]) => sql`WHEN ${from} THEN ${to}`);
  const domain = sql`(CASE ${rawDomain} ${sql.join(aliases, sql` `)} ELSE ${rawDomain} END)`;
  const rawLocal = sql`substr(${column}, 1, ${at} - 1)`;
  const local = sql`(CASE WHEN instr(${rawLocal}, '+') > 1 THEN substr(${rawLocal}, 1, instr(${rawLocal}, '+') - 1) ELSE ${rawLocal} END)`;
  const dotsIgnored = sql.join(
    [...DOTS_IGNORED].map((d) => sql`${d}`),
    sql`, `,
  );
  const undotted = sql`replace(${local}, '.', '')`;
  return sql`(CASE WHEN ${domain} IN (${dotsIgnored}) AND ${undotted} <> '' THEN ${undotted} ELSE ${local} END || '@' || ${domain})`;
}

/** What a hash stands for: the same address hashes differently per purpose, each under its own key. */
type AddressPurpose = "suppressed-email" | "confirmation-count";

interface AddressHash {
  hash: string;
  /** The mail key's id (features/mail/keys.server.ts); null for an entry made before issue 25. */
  keyId: string | null;
}

/**
 * The keyed hashes of `email` folded, under every MAIL_SECRET key of the purpose, newest first:
 * the first is the one to write, any of them finds an entry. `legacy` adds the hashes of before
 * issue 25 (the raw secret, the address as typed and folded), for lookups of older entries.
 */
export async function addressHashes(
  env: Env,
  purpose: AddressPurpose,
  email: string,
  { legacy = false } = {},
): Promise<AddressHash[]> {
  const folded = foldEmail(email);
  const keys = await mailKeys(env, purpose);
  const current = await Promise.all(
    keys.map(async (key) => ({ hash: await key.sign(`${purpose}:${folded}`), keyId: key.id })),
  );
  if (!legacy) return current;
  const spellings = [...new Set([folded, normaliseEmail(email)])];
  const old = await Promise.all(
    legacyMailSecrets(env, purpose).flatMap((secret) =>
      spellings.map(async (a) => ({ hash: await hmacSign(secret, `${purpose}:${a}`), keyId: null })),
    ),
  );
  return [...current, ...old];
}
