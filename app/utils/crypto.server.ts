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

function hmacKey(secret: string, usage: "sign" | "verify") {
  return crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [usage]);
}

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
