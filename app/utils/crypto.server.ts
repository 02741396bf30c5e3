/** The few Web Crypto operations the app needs, written once. */
const encoder = new TextEncoder();

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
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

/**
 * Remix's cookie signature (`value.signature`, HMAC-SHA-256 in padless base64), with the keys
 * above: the signer `createCookieFactory` takes (cookies.server.ts). Same format as
 * @remix-run/cloudflare's own, so cookies signed before it still verify.
 */
export const cookieSigner = {
  async sign(value: string, secret: string): Promise<string> {
    const signature = new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(secret, "sign"), encoder.encode(value)));
    return `${value}.${btoa(String.fromCharCode(...signature)).replace(/=+$/, "")}`;
  },
  async unsign(signed: string, secret: string): Promise<string | false> {
    const dot = signed.lastIndexOf(".");
    const value = signed.slice(0, dot);
    let signature: Uint8Array<ArrayBuffer>;
    try {
      signature = Uint8Array.from(atob(signed.slice(dot + 1)), (c) => c.charCodeAt(0));
    } catch {
      return false; // not base64: no signature of ours
    }
    return (await crypto.subtle.verify("HMAC", await hmacKey(secret, "verify"), signature, encoder.encode(value))) ? value : false;
  },
};

/** HMAC-SHA-256 of `message` under `secret`, base64url. */
export async function hmacSign(secret: string, message: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(secret, "sign"), encoder.encode(message))));
}

/**
 * Whether `signature` is the HMAC of `message` under any of `secrets` (newest first: a secret being
 * rotated out still verifies). The comparison is the platform's, in constant time.
 */
export async function hmacVerify(secrets: readonly string[], message: string, signature: string): Promise<boolean> {
  const bytes = fromBase64url(signature);
  if (!bytes || bytes.length !== 32) return false;
  for (const secret of secrets) {
    if (await crypto.subtle.verify("HMAC", await hmacKey(secret, "verify"), bytes, encoder.encode(message))) return true;
  }
  return false;
}
