/**
 * OpenID Connect ID-token verification (OIDC Core §3.1.3.7): remix-auth-oauth2 hands us the token
 * endpoint's answer unchecked, so this is what makes a sign-in trustworthy. `jose` checks the
 * signature, `iss`, `aud`, `exp` and `nbf`; the checks it has no option for (`azp`, `nonce`, a
 * non-empty `sub`, `iat` not in the future) follow it here.
 */
import {
  base64url,
  createLocalJWKSet,
  decodeProtectedHeader,
  errors,
  jwtVerify,
  type JWK,
  type JWTVerifyGetKey,
  type JWTVerifyOptions,
} from "jose";

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
export type PublicJwk = JWK;

/**
 * Asymmetric JWS algorithms only: `none` and the HMAC family (keyed with the client secret, which
 * we never configure for this) are refused, so an unsigned or self-signed token cannot pass.
 */
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512"];

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

/** What the log says for each claim jose refuses. */
const CLAIM_FAILURES: Record<string, string> = {
  iss: "iss is not the provider's issuer",
  aud: "aud does not include our client id",
  exp: "expired or without exp",
  nbf: "not valid yet (nbf)",
  iat: "iat is not a number",
};

export async function verifyIdToken(token: string, options: VerifyOptions): Promise<IdTokenClaims> {
  const { issuer, audience, nonce, now = Math.floor(Date.now() / 1000) } = options;
  let claims: Partial<IdTokenClaims>;
  try {
    ({ payload: claims } = await verifyWithKeys(token, keyResolver(options.keys), {
      algorithms: ALGORITHMS,
      issuer,
      audience,
      requiredClaims: ["exp"],
      clockTolerance: CLOCK_SKEW_S,
      currentDate: new Date(now * 1000),
    }));
  } catch (error) {
    throw refusal(error, token);
  }
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if ((audiences.length > 1 || claims.azp !== undefined) && claims.azp !== audience) {
    throw new IdTokenError("azp is not our client id");
  }
  if (claims.iat !== undefined && claims.iat - CLOCK_SKEW_S > now) throw new IdTokenError("issued in the future (iat)");
  if (typeof claims.nonce !== "string" || !timingSafeEqual(claims.nonce, nonce))
    throw new IdTokenError("nonce mismatch");
  if (typeof claims.sub !== "string" || !claims.sub) throw new IdTokenError("no sub");
  return claims as IdTokenClaims;
}

/** The cached JWKS first; fetched again once when no key fits (the provider rotated its keys). */
function keyResolver(keys: VerifyOptions["keys"]): JWTVerifyGetKey {
  return async (header, token) => {
    try {
      return await createLocalJWKSet({ keys: await keys(false) })(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
      return createLocalJWKSet({ keys: await keys(true) })(header, token);
    }
  };
}

/** jwtVerify, trying each candidate when several keys fit the header (no `kid`, repeated `kid`). */
async function verifyWithKeys(token: string, getKey: JWTVerifyGetKey, options: JWTVerifyOptions) {
  try {
    return await jwtVerify(token, getKey, options);
  } catch (error) {
    if (!(error instanceof errors.JWKSMultipleMatchingKeys)) throw error;
    for await (const key of error) {
      try {
        return await jwtVerify(token, key, options);
      } catch (inner) {
        if (!(inner instanceof errors.JWSSignatureVerificationFailed)) throw inner;
      }
    }
    throw new errors.JWSSignatureVerificationFailed();
  }
}

/** jose's errors as IdTokenErrors with a message that names the failed check. */
function refusal(error: unknown, token: string): unknown {
  if (error instanceof errors.JOSEAlgNotAllowed)
    return new IdTokenError(`algorithm ${headerOf(token).alg} is not accepted`);
  if (error instanceof errors.JWKSNoMatchingKey) {
    const { kid } = headerOf(token);
    return new IdTokenError(`no signing key${kid ? ` with kid ${kid}` : ""} in the JWKS`);
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return new IdTokenError("signature does not verify");
  if (error instanceof errors.JWTClaimValidationFailed || error instanceof errors.JWTExpired) {
    return new IdTokenError(CLAIM_FAILURES[error.claim] ?? error.message);
  }
  if (error instanceof errors.JOSEError) return new IdTokenError(error.message);
  return error; // the JWKS could not be fetched: not the token's fault
}

function headerOf(token: string): { alg?: string; kid?: string } {
  try {
    return decodeProtectedHeader(token);
  } catch {
    return {};
  }
}

export function base64UrlEncode(bytes: Uint8Array): string {
  return base64url.encode(bytes);
}

function timingSafeEqual(a: string, b: string) {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
