import { describe, expect, it } from "vitest";
import {
  base64UrlEncode,
  CLOCK_SKEW_S,
  IdTokenError,
  verifyIdToken,
  type PublicJwk,
} from "~/features/auth/id-token.server";

// ID-token verification with keys generated here: every check must be able to fail.
const ISSUER = "https://id.example";
const CLIENT = "afx-client";
const NONCE = "nonce-of-this-browser";
const now = () => Math.floor(Date.now() / 1000);
const enc = (v: unknown) => base64UrlEncode(new TextEncoder().encode(JSON.stringify(v)));

type Alg = "RS256" | "PS256" | "ES256" | "ES384";
const PARAMS: Record<
  Alg,
  { gen: RsaHashedKeyGenParams | EcKeyGenParams; sign: AlgorithmIdentifier | RsaPssParams | EcdsaParams }
> = {
  RS256: {
    gen: { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
    sign: { name: "RSASSA-PKCS1-v1_5" },
  },
  PS256: {
    gen: { name: "RSA-PSS", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
    sign: { name: "RSA-PSS", saltLength: 32 },
  },
  ES256: { gen: { name: "ECDSA", namedCurve: "P-256" }, sign: { name: "ECDSA", hash: "SHA-256" } },
  ES384: { gen: { name: "ECDSA", namedCurve: "P-384" }, sign: { name: "ECDSA", hash: "SHA-384" } },
};

async function keyPair(alg: Alg, kid: string) {
  const pair = (await crypto.subtle.generateKey(PARAMS[alg].gen, true, ["sign", "verify"])) as CryptoKeyPair;
  const jwk = (await crypto.subtle.exportKey("jwk", pair.publicKey)) as PublicJwk;
  return { alg, kid, privateKey: pair.privateKey, jwk: { ...jwk, kid, use: "sig", alg } as PublicJwk };
}

async function sign(
  key: Awaited<ReturnType<typeof keyPair>>,
  claims: Record<string, unknown>,
  header: Record<string, unknown> = {},
) {
  const input = `${enc({ alg: key.alg, kid: key.kid, typ: "JWT", ...header })}.${enc(claims)}`;
  const sig = await crypto.subtle.sign(PARAMS[key.alg].sign, key.privateKey, new TextEncoder().encode(input));
  return `${input}.${base64UrlEncode(new Uint8Array(sig))}`;
}

const good = () => ({
  iss: ISSUER,
  aud: CLIENT,
  sub: "user-1",
  exp: now() + 300,
  iat: now(),
  nonce: NONCE,
  email: "a@example.com",
});
const options = (keys: PublicJwk[], extra: Partial<Parameters<typeof verifyIdToken>[1]> = {}) => ({
  issuer: ISSUER,
  audience: CLIENT,
  nonce: NONCE,
  keys: async () => keys,
  ...extra,
});

describe("verifyIdToken", () => {
  it.each(["RS256", "PS256", "ES256", "ES384"] as const)(
    "accepts a good %s token and returns its claims",
    async (alg) => {
      const key = await keyPair(alg, `k-${alg}`);
      const claims = await verifyIdToken(await sign(key, good()), options([key.jwk]));
      expect(claims).toMatchObject({ sub: "user-1", email: "a@example.com" });
    },
  );

  it("refuses a token whose payload was changed after signing", async () => {
    const key = await keyPair("RS256", "k1");
    const [h, , s] = (await sign(key, good())).split(".");
    const forged = `${h}.${enc({ ...good(), email: "admin@example.com" })}.${s}`;
    await expect(verifyIdToken(forged, options([key.jwk]))).rejects.toThrow(/signature/);
  });

  it("refuses a token signed by a key that is not the provider's", async () => {
    const provider = await keyPair("RS256", "same-kid");
    const attacker = await keyPair("RS256", "same-kid");
    await expect(verifyIdToken(await sign(attacker, good()), options([provider.jwk]))).rejects.toThrow(/signature/);
  });

  it("refuses alg none and HMAC tokens", async () => {
    const none = `${enc({ alg: "none" })}.${enc(good())}.`;
    await expect(verifyIdToken(none, options([]))).rejects.toThrow(IdTokenError);
    const hs = `${enc({ alg: "HS256" })}.${enc(good())}.${base64UrlEncode(new Uint8Array(32))}`;
    await expect(verifyIdToken(hs, options([]))).rejects.toThrow(/algorithm HS256/);
  });

  it("refuses a key of the wrong type for the header's algorithm", async () => {
    const ec = await keyPair("ES256", "k");
    const rsa = await keyPair("RS256", "k");
    await expect(verifyIdToken(await sign(rsa, good()), options([ec.jwk]))).rejects.toThrow(/no signing key/);
  });

  it("fetches the JWKS again once when the kid is unknown (key rotation)", async () => {
    const old = await keyPair("RS256", "old");
    const rotated = await keyPair("RS256", "new");
    const calls: boolean[] = [];
    const keys = async (refresh: boolean) => {
      calls.push(refresh);
      return refresh ? [old.jwk, rotated.jwk] : [old.jwk];
    };
    await expect(verifyIdToken(await sign(rotated, good()), options([], { keys }))).resolves.toMatchObject({
      sub: "user-1",
    });
    expect(calls).toEqual([false, true]);
  });

  it.each([
    ["another issuer", { iss: "https://evil.example" }, /iss/],
    ["another audience", { aud: "someone-else" }, /aud/],
    ["several audiences without azp", { aud: [CLIENT, "other"] }, /azp/],
    ["an azp that is not us", { azp: "other" }, /azp/],
    ["an expired token", { exp: now() - CLOCK_SKEW_S - 1 }, /expired/],
    ["no exp", { exp: undefined }, /expired/],
    ["a token issued in the future", { iat: now() + CLOCK_SKEW_S + 60 }, /iat/],
    ["a token not valid yet", { nbf: now() + CLOCK_SKEW_S + 60 }, /nbf/],
    ["another browser's nonce", { nonce: "someone-elses-nonce" }, /nonce/],
    ["no nonce", { nonce: undefined }, /nonce/],
    ["no sub", { sub: "" }, /sub/],
  ])("refuses %s", async (_label, change, message) => {
    const key = await keyPair("RS256", "k1");
    await expect(verifyIdToken(await sign(key, { ...good(), ...change }), options([key.jwk]))).rejects.toThrow(message);
  });

  it("accepts several audiences when azp is our client id", async () => {
    const key = await keyPair("ES256", "k1");
    const token = await sign(key, { ...good(), aud: [CLIENT, "api"], azp: CLIENT });
    await expect(verifyIdToken(token, options([key.jwk]))).resolves.toMatchObject({ azp: CLIENT });
  });

  it.each(["", "a.b", "a.b.c.d", "!!.??.**", `${enc([1])}.${enc({})}.x`])(
    "refuses the malformed token %j",
    async (token) => {
      await expect(verifyIdToken(token, options([]))).rejects.toThrow(IdTokenError);
    },
  );
});
