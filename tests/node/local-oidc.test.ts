import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localDefaultIssuer, startLocalProviderIfNeeded } from "../../scripts/lib/local-oidc.mjs";

// The local OpenID provider of `npm start` and the tests (scripts/lib/local-oidc.mjs).
const REDIRECT = "http://localhost:8787/api/callback";

function authorizeQuery(extra: Record<string, string> = {}) {
  return new URLSearchParams({
    response_type: "code",
    client_id: "afx-local",
    redirect_uri: REDIRECT,
    state: "s1",
    nonce: "n1",
    scope: "openid email profile",
    ...extra,
  });
}

describe("startLocalProviderIfNeeded", () => {
  it("stays out of the way when OAUTH_ISSUER names a real provider", async () => {
    const saved = process.env.OAUTH_ISSUER;
    process.env.OAUTH_ISSUER = "https://accounts.google.com";
    try {
      await expect(startLocalProviderIfNeeded({ port: 0 })).resolves.toBeNull();
    } finally {
      // Not `delete`: the generated worker types declare every var of wrangler.toml on process.env.
      if (saved === undefined) Reflect.deleteProperty(process.env, "OAUTH_ISSUER");
      else process.env.OAUTH_ISSUER = saved;
    }
  });

  it("takes a free port when the configured one is in use", async () => {
    const wanted = Number(new URL(localDefaultIssuer()).port);
    const blocker: Server = createServer();
    const blocked = await new Promise<boolean>((resolve) => {
      blocker.once("error", () => resolve(false));
      blocker.listen(wanted, "127.0.0.1", () => resolve(true));
    });
    const provider = await startLocalProviderIfNeeded();
    try {
      expect(provider).not.toBeNull();
      // Either we held the port, or someone else does (another npm start): never the same port.
      expect(new URL(provider!.issuer).port).not.toBe(String(wanted));
    } finally {
      await provider?.stop();
      if (blocked) await new Promise((r) => blocker.close(r));
    }
  });
});

describe("the local provider", () => {
  let issuer: string;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    const provider = await startLocalProviderIfNeeded({ port: 0 });
    issuer = provider!.issuer;
    stop = provider!.stop;
  });
  afterAll(() => stop());

  it("publishes discovery with its own issuer and a JWKS with an RS256 key", async () => {
    const doc = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as {
      issuer: string;
      jwks_uri: string;
    };
    expect(doc.issuer).toBe(issuer);
    const jwks = (await (await fetch(doc.jwks_uri)).json()) as { keys: Record<string, unknown>[] };
    expect(jwks.keys[0]).toMatchObject({ kty: "RSA", alg: "RS256" });
  });

  it("shows a sign-in page that keeps the request's parameters, escaped", async () => {
    const res = await fetch(`${issuer}/authorize?${authorizeQuery({ state: '"><script>x</script>' })}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('name="login_email"');
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
    expect(html).not.toContain("<script>x</script>");
  });

  it("asks again for an invalid e-mail", async () => {
    const res = await fetch(`${issuer}/authorize?${authorizeQuery({ login_email: "not-an-email" })}`, {
      redirect: "manual",
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Please enter a valid email address.");
  });

  it("sends people back only to applications on this machine", async () => {
    const res = await fetch(
      `${issuer}/authorize?${authorizeQuery({ redirect_uri: "https://evil.example/cb", login_email: "a@example.com" })}`,
      { redirect: "manual" },
    );
    expect(res.status).toBe(400);
  });

  it("Cancel answers error=access_denied with the state", async () => {
    const res = await fetch(`${issuer}/authorize?${authorizeQuery({ cancel: "1" })}`, { redirect: "manual" });
    const back = new URL(res.headers.get("location")!);
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("state")).toBe("s1");
  });

  it("signs in the typed e-mail: the ID token and userinfo carry it, with the name split", async () => {
    const verifier = "v".repeat(64);
    const challenge = Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))).toString(
      "base64url",
    );
    const q = authorizeQuery({
      code_challenge: challenge,
      code_challenge_method: "S256",
      login_email: " Grace@Example.com ",
      login_name: "Grace  Brewster Hopper",
    });
    const back = new URL((await fetch(`${issuer}/authorize?${q}`, { redirect: "manual" })).headers.get("location")!);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    const token = await fetch(`${issuer}/token`, {
      method: "POST",
      headers: { Authorization: `Basic ${btoa("afx-local:secret")}` },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: back.searchParams.get("code")!,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      }),
    });
    const tokens = (await token.json()) as { id_token: string; access_token: string };
    const claims = JSON.parse(Buffer.from(tokens.id_token.split(".")[1], "base64url").toString());
    expect(claims).toMatchObject({
      iss: issuer,
      aud: "afx-local",
      nonce: "n1",
      sub: "grace@example.com",
      email: "grace@example.com",
      email_verified: true,
      given_name: "Grace",
      family_name: "Brewster Hopper",
    });
    const info = await (
      await fetch(`${issuer}/userinfo`, { headers: { Authorization: `Bearer ${tokens.access_token}` } })
    ).json();
    expect(info).toMatchObject({ sub: "grace@example.com", email: "grace@example.com" });
  });
});
