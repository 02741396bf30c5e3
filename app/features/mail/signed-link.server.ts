/**
 * The one way a mailed link carries proof (docs/decisions/110-signed-links.md): a token
 * `subject[.expires].keyId.signature` that needs no storage. `subject` names what the link is for
 * (a lead's id, an invitation's), `keyId` the MAIL_SECRET key that signed it (keys.server.ts: one
 * key per kind's purpose, so one kind's links never verify as another's), `expires` (Unix
 * seconds) the end of a kind that lives for a while, and the signature, HMAC-SHA-256 over the
 * kind's label, the subject and the expiry, proves all three.
 */
import { mailKeys, sameSignature, type LinkPurpose } from "~/features/mail/keys.server";

/** What a kind of link is: its key, the label its signature covers, and how long it lives. */
export interface LinkKind {
  /** The key's purpose: each kind its own key. */
  purpose: LinkPurpose;
  /** The signed message's prefix, as the kind first wrote it (links already mailed keep working). */
  label: string;
  /** How long a link lives from its signing; none: as long as its key stays in MAIL_SECRET. */
  ttlMs?: number;
}

/** A subject: an id or a random handle, of URL-safe characters and never a dot. */
const SUBJECT = /^[A-Za-z0-9_-]{1,64}$/;
const TOKEN = /^([A-Za-z0-9_-]{1,64})\.(?:(\d{1,15})\.)?([A-Za-z0-9_-]{8})\.([A-Za-z0-9_-]{43})$/;

const message = (kind: LinkKind, subject: string, expires: string | undefined) =>
  expires === undefined ? `${kind.label}:${subject}` : `${kind.label}:${subject}:${expires}`;

/** A link's token for `subject`, signed with the kind's newest key (and ending `ttlMs` from `now`). */
export async function signLink(env: Env, kind: LinkKind, subject: string | number, now = Date.now()): Promise<string> {
  const name = String(subject);
  if (!SUBJECT.test(name)) throw new Error(`A signed link's subject must match ${SUBJECT}: ${name}`);
  const expires = kind.ttlMs === undefined ? undefined : String(Math.ceil((now + kind.ttlMs) / 1000));
  const [key] = await mailKeys(env, kind.purpose);
  const signed = await key!.sign(message(kind, name, expires));
  return [name, expires, key!.id, signed].filter((part) => part !== undefined).join(".");
}

/**
 * The subject a token names, when it is this kind's, its signature holds under the key it names
 * (any key still listed in MAIL_SECRET) and, for a kind that expires, it has not; else null.
 */
export async function readLink(env: Env, kind: LinkKind, token: string, now = Date.now()): Promise<string | null> {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const [, subject, expires, keyId, signature] = match;
  if ((expires === undefined) !== (kind.ttlMs === undefined)) return null;
  if (expires !== undefined && Number(expires) * 1000 <= now) return null;
  const key = (await mailKeys(env, kind.purpose)).find((k) => k.id === keyId);
  return key && sameSignature(await key.sign(message(kind, subject!, expires)), signature!) ? subject! : null;
}

/** A subject as a row id (a positive integer), or null. */
export const linkId = (subject: string | null): number | null =>
  subject !== null && /^[1-9]\d{0,15}$/.test(subject) ? Number(subject) : null;
