/**
 * OpenID Connect ID-token verification with WebCrypto (OIDC Core §3.1.3.7): remix-auth-oauth2
 * hands us the token endpoint's answer unchecked, so this is what makes a sign-in trustworthy.
 */

/** A claim check or signature failed; the message names which (for logs, never for users). */
export class IdTokenError extends Error {
  override name = "IdTokenError";
}

export interface IdTokenClaims {
  iss: string;
  sub: string;
  aud: string | string[];
  exp: number;
  iat?: number;
  nbf?: number;
  nonce?: string;
  azp?: string;
  email?: string;
  email_verified?: boolean | string;
  name?: string;
  given_name?: string;
  family_name?: string;
  picture?: string;
  [claim: string]: unknown;
}

/** A public key of the provider's JWKS. */
export interface PublicJwk {
  kty: string;
  kid?: string;
  use?: string;
  alg?: string;
  n?: string;
  e?: string;
  crv?: string;
  x?: string;
  y?: string;
}

interface AlgorithmSpec {
  kty: "RSA" | "EC";
  crv?: string;
  importParams: RsaHashedImportParams | EcKeyImportParams;
  verifyParams: AlgorithmIdentifier | RsaPssParams | EcdsaParams;
}

const rsa = (name: "RSASSA-PKCS1-v1_5" | "RSA-PSS", bits: 256 | 384 | 512): AlgorithmSpec => ({
  kty: "RSA",
  importParams: { name, hash: `SHA-${bits}` },
  verifyParams: name === "RSA-PSS" ? { name, saltLength: bits / 8 } : { name },
});
const ec = (crv: "P-256" | "P-384" | "P-521", bits: 256 | 384 | 512): AlgorithmSpec => ({
  kty: "EC",
  crv,
  importParams: { name: "ECDSA", namedCurve: crv },
  verifyParams: { name: "ECDSA", hash: `SHA-${bits}` },
});

/**
 * Asymmetric JWS algorithms only: `none` and the HMAC family (keyed with the client secret, which
 * we never configure for this) are refused, so an unsigned or self-signed token cannot pass.
 */
const ALGORITHMS: Record<string, AlgorithmSpec> = {
  RS256: rsa("RSASSA-PKCS1-v1_5", 256),
  RS384: rsa("RSASSA-PKCS1-v1_5", 384),
  RS512: rsa("RSASSA-PKCS1-v1_5", 512),
  PS256: rsa("RSA-PSS", 256),
  PS384: rsa("RSA-PSS", 384),
  PS512: rsa("RSA-PSS", 512),
  ES256: ec("P-256", 256),
  ES384: ec("P-384", 384),
  ES512: ec("P-521", 512),
};

/** Tolerated clock difference between us and the provider. */
export const CLOCK_SKEW_S = 60;

export interface VerifyOptions {
  /** The `issuer` of the provider's discovery document; `iss` must equal it exactly. */
  issuer: string;
  /** Our client id; it must be in `aud` (and be `azp` when present). */
  audience: string;
  /** The nonce this browser's sign-in sent; the token must carry the same. */
  nonce: string;
  /** The provider's signing keys; called again with `true` once when no key matches (rotation). */
  keys: (refresh: boolean) => Promise<PublicJwk[]>;
  /** Epoch seconds; defaults to now. */
  now?: number;
}

export async function verifyIdToken(token: string, options: VerifyOptions): Promise<IdTokenClaims> {
  const parts = token.split(".");
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]+$/.test(p))) {
    throw new IdTokenError("not a compact JWS");
  }
  const header = decodeJson(parts[0], "header") as { alg?: unknown; kid?: unknown; crit?: unknown };
  const claims = decodeJson(parts[1], "payload") as Partial<IdTokenClaims>;
  const spec = typeof header.alg === "string" ? ALGORITHMS[header.alg] : undefined;
  if (!spec) throw new IdTokenError(`algorithm ${String(header.alg)} is not accepted`);
  if (header.crit !== undefined) throw new IdTokenError("critical header parameters are not supported");
  const kid = typeof header.kid === "string" ? header.kid : undefined;

  const signed = new TextEncoder().encode(`${parts[0]}.${parts[1]}`);
  const signature = base64UrlDecode(parts[2]);
  let candidates = matchingKeys(await options.keys(false), header.alg as string, spec, kid);
  if (candidates.length === 0) candidates = matchingKeys(await options.keys(true), header.alg as string, spec, kid);
  if (candidates.length === 0) throw new IdTokenError(`no signing key${kid ? ` with kid ${kid}` : ""} in the JWKS`);
  let valid = false;
  for (const jwk of candidates) {
    if (await verifyWith(jwk, spec, signature, signed)) {
      valid = true;
      break;
    }
  }
  if (!valid) throw new IdTokenError("signature does not verify");

  checkClaims(claims, options);
  return claims as IdTokenClaims;
}

function checkClaims(claims: Partial<IdTokenClaims>, { issuer, audience, nonce, now = Math.floor(Date.now() / 1000) }: VerifyOptions) {
  if (claims.iss !== issuer) throw new IdTokenError(`iss ${String(claims.iss)} is not ${issuer}`);
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(audience)) throw new IdTokenError("aud does not include our client id");
  if ((audiences.length > 1 || claims.azp !== undefined) && claims.azp !== audience) {
    throw new IdTokenError("azp is not our client id");
  }
  if (typeof claims.exp !== "number" || claims.exp + CLOCK_SKEW_S <= now) throw new IdTokenError("expired");
  if (claims.nbf !== undefined && (typeof claims.nbf !== "number" || claims.nbf - CLOCK_SKEW_S > now)) {
    throw new IdTokenError("not valid yet (nbf)");
  }
  if (claims.iat !== undefined && (typeof claims.iat !== "number" || claims.iat - CLOCK_SKEW_S > now)) {
    throw new IdTokenError("issued in the future (iat)");
  }
  if (typeof claims.nonce !== "string" || !timingSafeEqual(claims.nonce, nonce)) throw new IdTokenError("nonce mismatch");
  if (typeof claims.sub !== "string" || !claims.sub) throw new IdTokenError("no sub");
}

function matchingKeys(keys: PublicJwk[], alg: string, spec: AlgorithmSpec, kid: string | undefined) {
  return keys.filter(
    (k) =>
      k.kty === spec.kty &&
      (spec.crv === undefined || k.crv === spec.crv) &&
      (k.use === undefined || k.use === "sig") &&
      (k.alg === undefined || k.alg === alg) &&
      (kid === undefined || k.kid === kid),
  );
}

async function verifyWith(jwk: PublicJwk, spec: AlgorithmSpec, signature: Uint8Array<ArrayBuffer>, data: Uint8Array<ArrayBuffer>) {
  // Only the public parameters: `alg`, `use` or `key_ops` spelled differently by a provider
  // would make importKey refuse an otherwise good key.
  const material: JsonWebKey =
    spec.kty === "RSA" ? { kty: "RSA", n: jwk.n, e: jwk.e } : { kty: "EC", crv: jwk.crv, x: jwk.x, y: jwk.y };
  try {
    const key = await crypto.subtle.importKey("jwk", material, spec.importParams, false, ["verify"]);
    return await crypto.subtle.verify(spec.verifyParams, key, signature, data);
  } catch {
    return false;
  }
}

function decodeJson(segment: string, what: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(base64UrlDecode(segment)));
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new IdTokenError(`${what} is not a JSON object`);
}

export function base64UrlDecode(segment: string): Uint8Array<ArrayBuffer> {
  const base64 = segment.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(segment.length / 4) * 4, "=");
  const binary = atob(base64);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

export function base64UrlEncode(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function timingSafeEqual(a: string, b: string) {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
