/** The few Web Crypto operations the app needs, written once. */
const encoder = new TextEncoder();

/** Base64 without padding (Remix's cookie signatures). */
function base64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/=+$/, "");
}

function base64url(bytes: Uint8Array): string {
  return base64(bytes).replace(/\+/g, "-").replace(/\//g, "_");
}

/** The bytes of a base64 text, or null when it is not base64. */
function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  return fromBase64(text.replace(/-/g, "+").replace(/_/g, "/"));
}

/** A secret for a URL or a cookie: `bytes` random bytes, base64url (32 bytes: 43 characters). */
export function randomToken(bytes = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** SHA-256 of a text, lower-case hex: how tokens are stored, so a copy of D1 holds none. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

// An imported key per secret and use, kept for the isolate's life: importKey on every signature
// was 6 % of a member's render (a session cookie is verified on every request). The secrets are
// the env's few, so the cache stays small; it is emptied if it ever holds more.
const keys = new Map<string, Promise<CryptoKey>>();
const MAX_KEYS = 32;

function hmacKey(secret: string, usage: "sign" | "verify"): Promise<CryptoKey> {
  const id = `${usage}:${secret}`;
  let key = keys.get(id);
  if (!key) {
    if (keys.size >= MAX_KEYS) keys.clear();
    key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [usage]);
    keys.set(id, key);
    key.catch(() => keys.delete(id));
  }
  return key;
}

/** HMAC-SHA-256 of `message` under `secret`. */
async function hmac(secret: string, message: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(secret, "sign"), encoder.encode(message)));
}

/** Whether `signature` is the HMAC of `message` under `secret`; the platform compares in constant time. */
async function hmacMatches(secret: string, message: string, signature: Uint8Array<ArrayBuffer>): Promise<boolean> {
  return crypto.subtle.verify("HMAC", await hmacKey(secret, "verify"), signature, encoder.encode(message));
}

/**
 * Remix's cookie signature (`value.signature`, HMAC-SHA-256 in padless base64), with the keys
 * above: the signer `createCookieFactory` takes (cookies.server.ts). Same format as
 * @remix-run/cloudflare's own, so cookies signed before it still verify.
 */
export const cookieSigner = {
  async sign(value: string, secret: string): Promise<string> {
    return `${value}.${base64(await hmac(secret, value))}`;
  },
  async unsign(signed: string, secret: string): Promise<string | false> {
    const dot = signed.lastIndexOf(".");
    const value = signed.slice(0, dot);
    const signature = fromBase64(signed.slice(dot + 1));
    return signature && (await hmacMatches(secret, value, signature)) ? value : false;
  },
};

/** HMAC-SHA-256 of `message` under `secret`, base64url. */
export async function hmacSign(secret: string, message: string): Promise<string> {
  return base64url(await hmac(secret, message));
}

/**
 * Whether `signature` is the HMAC of `message` under any of `secrets` (newest first: a secret being
 * rotated out still verifies).
 */
export async function hmacVerify(secrets: readonly string[], message: string, signature: string): Promise<boolean> {
  const bytes = fromBase64url(signature);
  if (!bytes || bytes.length !== 32) return false;
  for (const secret of secrets) {
    if (await hmacMatches(secret, message, bytes)) return true;
  }
  return false;
}
