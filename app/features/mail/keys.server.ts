/**
 * The mail's own keys (issue 25, docs/decisions/016 and 019): unsubscribe links and the records
 * keyed by an address (suppression list, confirmation counts) are signed with keys derived from
 * MAIL_SECRET, not SESSION_SECRET, so rotating the cookie secret changes none of them. Each
 * purpose gets its own key, derived with HKDF-SHA-256 under its label, so one purpose's values
 * never verify as another's. Every key has a short public id (derived too), written beside what it
 * signed, so a check uses the one key that made it and any listed key keeps working.
 *
 * MAIL_SECRET is a list, newest first: the first signs, all verify. A value is also accepted as
 * it was used before this change (HMAC under the raw secret), so the SESSION_SECRET of that time,
 * kept at the end of MAIL_SECRET, keeps older links and entries working (docs/operate.md, rotating secrets).
 *
 * Two roles (docs/decisions/060): a link proves who may act, a record's key only finds what was
 * written. A `retired:` value (a leaked one) keeps the second role alone: its keys still find the
 * suppression entries and counts made under it, so retiring it un-suppresses nobody, and verify
 * no link, so its holder forges none.
 */
import { getConfig } from "~/utils/config.server";

/** A signed link's key (signed-link.server.ts): one per kind of link, named `<kind>-link`. */
export type LinkPurpose = `${string}-link`;

type MailKeyPurpose = LinkPurpose | "suppressed-email" | "confirmation-count";

interface MailKey {
  /** 8 base64url characters, public: names the key in links and rows. */
  id: string;
  /** HMAC-SHA-256 of `message`, base64url (43 characters). */
  sign(message: string): Promise<string>;
}

const encoder = new TextEncoder();
const base64url = (bytes: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

const cache = new Map<string, Promise<MailKey>>();

async function derive(secret: string, purpose: MailKeyPurpose): Promise<MailKey> {
  const ikm = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey", "deriveBits"]);
  const hkdf = (info: string) => ({
    name: "HKDF",
    hash: "SHA-256",
    salt: new Uint8Array(32),
    info: encoder.encode(info),
  });
  const key = await crypto.subtle.deriveKey(
    hkdf(`afx-mail/${purpose}/v1`),
    ikm,
    { name: "HMAC", hash: "SHA-256", length: 256 },
    false,
    ["sign"],
  );
  const id = base64url(await crypto.subtle.deriveBits(hkdf("afx-mail/key-id/v1"), ikm, 48));
  return { id, sign: async (message) => base64url(await crypto.subtle.sign("HMAC", key, encoder.encode(message))) };
}

/** Links prove something; the other purposes only find records, which a retired value still may. */
const LOOKUP_ONLY: ReadonlySet<MailKeyPurpose> = new Set(["suppressed-email", "confirmation-count"]);

/** The MAIL_SECRET values whose keys serve `purpose`, newest first: those in use, then for lookups the retired ones. */
function secretsFor(env: Env, purpose: MailKeyPurpose): readonly string[] {
  const { mailSecrets, retiredMailSecrets } = getConfig(env);
  return LOOKUP_ONLY.has(purpose) ? [...mailSecrets, ...retiredMailSecrets] : mailSecrets;
}

/** The keys of `purpose`, newest first (the first, always one in use, is the one to sign with). */
export function mailKeys(env: Env, purpose: MailKeyPurpose): Promise<MailKey[]> {
  if (!getConfig(env).mailSecrets.length)
    throw new Error("MAIL_SECRET must be set to sign mail links and key address records");
  const secrets = secretsFor(env, purpose);
  return Promise.all(
    secrets.map((secret) => {
      const name = `${purpose}\u0000${secret}`;
      let key = cache.get(name);
      if (!key) cache.set(name, (key = derive(secret, purpose)));
      return key;
    }),
  );
}

/** The MAIL_SECRET values as the raw HMAC keys of before issue 25 (links and entries made then), by the same roles. */
export function legacyMailSecrets(env: Env, purpose: MailKeyPurpose): readonly string[] {
  return secretsFor(env, purpose);
}

/** Whether two signatures are equal, in time that does not depend on where they differ. */
export function sameSignature(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
