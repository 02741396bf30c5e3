import { redirect } from "@remix-run/cloudflare";
import { Authenticator } from "remix-auth";
import { CodeChallengeMethod, OAuth2RequestError, OAuth2Strategy } from "remix-auth-oauth2";
import { upsertUser, type SignInProfile } from "~/features/auth/users.server";
import { redirectWithToast } from "~/utils/flash.server";
import {
  base64UrlEncode,
  IdTokenError,
  verifyIdToken,
  type IdTokenClaims,
  type PublicJwk,
} from "~/features/auth/id-token.server";
import { parseCookieHeader } from "~/utils/cookie-header";
import { getConfig, type Config } from "~/utils/config.server";
import { log, requestIdOf } from "~/utils/log.server";
import { sameOriginPath } from "~/utils/same-origin-path";
import { deliverableAddress } from "~/utils/email-schema";
import { cookieName, COOKIES, cookieSecurity, signedCookie } from "~/utils/cookies.server";
import { startSession } from "~/features/auth/session.server";
import { BARE_NO_STORE } from "~/utils/no-store";

/**
 * Sign-in with OpenID Connect (docs/decisions/004-sign-in.md): remix-auth-oauth2 runs the
 * authorization-code flow with PKCE and `state`; this module adds discovery, the `nonce`, ID-token
 * verification, the user upsert and the session, and turns every failure into a toast on `/`.
 */

const SCOPES = ["openid", "email", "profile"];
const FETCH_TIMEOUT_MS = 5_000;
const METADATA_TTL_MS = 60 * 60 * 1000;
/** How long a started sign-in may take at the provider. */
const FLOW_MAX_AGE_S = 10 * 60;

const SIGN_IN_FAILED = { title: "Sign-in failed", variant: "destructive" } as const;
export const SIGN_IN_CANCELLED = {
  title: "Sign-in cancelled",
  description: "You are still signed out; nothing was changed.",
} as const;

// ---------------------------------------------------------------------------------------------
// Discovery and keys: fetched on first use inside a request (never at module scope), cached per
// isolate; a failed fetch is not cached, so the next sign-in tries again.

interface ProviderMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  userinfo_endpoint?: string;
}

interface Cached<T> {
  at: number;
  value: Promise<T>;
}
const metadataCache = new Map<string, Cached<ProviderMetadata>>();
const jwksCache = new Map<string, Cached<PublicJwk[]>>();

function cached<T>(cache: Map<string, Cached<T>>, key: string, ttlMs: number, load: () => Promise<T>, refresh = false) {
  const hit = cache.get(key);
  if (hit && !refresh && Date.now() - hit.at < ttlMs) return hit.value;
  const entry = { at: Date.now(), value: load() };
  cache.set(key, entry);
  entry.value.catch(() => cache.get(key) === entry && cache.delete(key));
  return entry.value;
}

async function fetchJson(url: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    ...init,
    headers: { Accept: "application/json", ...init.headers },
    signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
  });
  if (!response.ok) throw new ProviderError(`${url} answered ${response.status}`);
  const body: unknown = await response.json();
  if (!body || typeof body !== "object") throw new ProviderError(`${url} did not answer a JSON object`);
  return body as Record<string, unknown>;
}

/** OpenID Provider metadata of `issuer` (OpenID Connect Discovery 1.0). */
export function discover(issuer: string): Promise<ProviderMetadata> {
  return cached(metadataCache, issuer, METADATA_TTL_MS, async () => {
    const base = issuer.replace(/\/$/, "");
    const doc = await fetchJson(`${base}/.well-known/openid-configuration`);
    const urls = ["authorization_endpoint", "token_endpoint", "jwks_uri"] as const;
    for (const name of urls) {
      if (typeof doc[name] !== "string") throw new ProviderError(`discovery document has no ${name}`);
    }
    // Discovery §4.3: the document must be about the issuer we asked for.
    if (typeof doc.issuer !== "string" || doc.issuer.replace(/\/$/, "") !== base) {
      throw new ProviderError(`discovery issuer ${logSafe(doc.issuer)} is not ${issuer}`);
    }
    return doc as unknown as ProviderMetadata;
  });
}

function signingKeys(jwksUri: string, refresh: boolean): Promise<PublicJwk[]> {
  return cached(
    jwksCache,
    jwksUri,
    METADATA_TTL_MS,
    async () => {
      const { keys } = await fetchJson(jwksUri);
      if (!Array.isArray(keys)) throw new ProviderError("JWKS has no keys");
      return keys as PublicJwk[];
    },
    refresh,
  );
}

/** Drops cached discovery documents and keys (tests switch providers). */
export function forgetProviders() {
  metadataCache.clear();
  jwksCache.clear();
}

// ---------------------------------------------------------------------------------------------
// The flow's cookies. remix-auth-oauth2 keeps `state` → PKCE verifier in `{name}:{uuid}` cookies
// (one per started sign-in, so two tabs can sign in at once); we remove them after the callback.

class ProviderError extends Error {
  override name = "ProviderError";
}
class SignInError extends Error {
  override name = "SignInError";
}

function stateCookieName(request: Request) {
  return cookieName(request, COOKIES.oauthFlow);
}

function returnToCookieName(request: Request) {
  return cookieName(request, COOKIES.returnTo);
}

/** Where to go after the callback; signed, so only our own login route can set it. */
function returnToCookie(request: Request, env: Env) {
  return signedCookie(request, env, COOKIES.returnTo, FLOW_MAX_AGE_S);
}

function requestCookies(request: Request): [string, string][] {
  return [...parseCookieHeader(request.headers.get("Cookie"))];
}

/** The PKCE verifier this browser stored for `state` (the value the nonce is derived from). */
function verifierFor(request: Request, state: string): string | null {
  const prefix = stateCookieName(request);
  for (const [name, value] of requestCookies(request)) {
    if (!name.startsWith(prefix)) continue;
    const verifier = new URLSearchParams(value.replace(/^"|"$/g, "")).get(state);
    if (verifier) return verifier;
  }
  return null;
}

/** Set-Cookie values that delete the sign-in flow's cookies this request carries. */
function clearFlowCookies(request: Request): string[] {
  const { secure } = cookieSecurity(request);
  const stateName = stateCookieName(request);
  const returnToName = returnToCookieName(request);
  return requestCookies(request)
    .filter(([name]) => name.startsWith(stateName) || name === returnToName)
    .map(([name]) => `${name}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`);
}

// ---------------------------------------------------------------------------------------------
// The nonce is bound to the browser without another cookie: it is a hash of the PKCE verifier
// that only this browser's state cookie holds (OIDC Core §15.5.2). An ID token minted for any
// other sign-in carries a different nonce and is refused.

async function nonceFor(codeVerifier: string) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`afx-oidc-nonce:${codeVerifier}`));
  return base64UrlEncode(new Uint8Array(digest));
}

function randomToken() {
  return base64UrlEncode(crypto.getRandomValues(new Uint8Array(32)));
}

interface PendingFlow {
  state: string;
  codeVerifier: string;
  nonce: string;
}

/** OAuth2Strategy with the OIDC `nonce` in the authorization request. */
class OidcStrategy extends OAuth2Strategy<SignInProfile> {
  constructor(
    options: OAuth2Strategy.ConstructorOptions,
    verify: (args: OAuth2Strategy.VerifyOptions) => Promise<SignInProfile>,
    private readonly flow: PendingFlow | null,
  ) {
    super(options, verify);
  }

  protected override createAuthorizationURL() {
    if (!this.flow) return super.createAuthorizationURL();
    const { state, codeVerifier, nonce } = this.flow;
    const url = this.client.createAuthorizationURLWithPKCE(
      this.options.authorizationEndpoint.toString(),
      state,
      CodeChallengeMethod.S256,
      codeVerifier,
      this.options.scopes ?? [],
    );
    url.searchParams.set("nonce", nonce);
    return { state, codeVerifier, url };
  }

  // arctic's token request has no deadline: a provider that never answers must not hang sign-in.
  protected override validateAuthorizationCode(code: string, codeVerifier: string) {
    return Promise.race([
      super.validateAuthorizationCode(code, codeVerifier),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new ProviderError("token endpoint did not answer in time")), FETCH_TIMEOUT_MS),
      ),
    ]);
  }
}

type OidcConfig = Config["oauth"];

/** The provider and client; sign-in stays off without a SESSION_SECRET to sign the session with. */
function oidcConfig(env: Env): OidcConfig {
  const config = getConfig(env);
  if (!config.sessionSecrets.length) throw new SignInError("SESSION_SECRET must be set");
  return config.oauth;
}

function authenticator(
  request: Request,
  config: OidcConfig,
  metadata: ProviderMetadata,
  flow: PendingFlow | null,
  verify: (args: OAuth2Strategy.VerifyOptions) => Promise<SignInProfile> = async () => {
    throw new SignInError("no verification on the first leg");
  },
) {
  const { secure } = cookieSecurity(request);
  const strategy = new OidcStrategy(
    {
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      authorizationEndpoint: metadata.authorization_endpoint,
      tokenEndpoint: metadata.token_endpoint,
      // Built from the request: the provider sends the browser back to the host it came from.
      redirectURI: new URL("/api/callback", request.url),
      scopes: SCOPES,
      codeChallengeMethod: CodeChallengeMethod.S256,
      cookie: {
        name: stateCookieName(request),
        ...(secure ? { secure: true as const } : {}),
        httpOnly: true,
        sameSite: "Lax",
        path: "/",
        maxAge: FLOW_MAX_AGE_S,
      },
    },
    verify,
    flow,
  );
  return new Authenticator<SignInProfile>().use(strategy, "oidc");
}

// ---------------------------------------------------------------------------------------------
// The two legs.

/** Same-origin pages only (sameOriginPath); anything else, the API included, is `/`. */
export function safeReturnTo(value: string | null | undefined, requestUrl: string): string {
  const path = sameOriginPath(value, new URL(requestUrl).origin);
  // Routes match case-insensitively: `/API/logout` is the API too.
  return path && !/^\/api(\/|$)/i.test(path) ? path : "/";
}

/** `GET /api/login`: off to the provider, with `state`, PKCE and `nonce`. */
export async function startSignIn(request: Request, env: Env): Promise<Response> {
  const returnTo = safeReturnTo(new URL(request.url).searchParams.get("returnTo"), request.url);
  try {
    const config = oidcConfig(env);
    const metadata = await discover(config.issuer);
    const codeVerifier = randomToken();
    const flow = { state: randomToken(), codeVerifier, nonce: await nonceFor(codeVerifier) };
    // Without its query: a `state` parameter would make the strategy treat this as a callback.
    const bare = new Request(new URL("/api/login", request.url), { headers: request.headers });
    await authenticator(request, config, metadata, flow).authenticate("oidc", bare);
    throw new SignInError("the strategy did not redirect");
  } catch (thrown) {
    if (thrown instanceof Response && thrown.headers.has("Location")) {
      const headers = new Headers(thrown.headers);
      headers.append("Set-Cookie", await returnToCookie(request, env).serialize(returnTo));
      headers.set("Cache-Control", BARE_NO_STORE);
      return new Response(null, { status: 302, headers });
    }
    return signInFailed(request, env, thrown);
  }
}

/** `GET /api/callback`: checks everything, upserts the user, starts the session. */
export async function finishSignIn(request: Request, env: Env): Promise<Response> {
  try {
    const config = oidcConfig(env);
    const url = new URL(request.url);
    const state = url.searchParams.get("state");
    // Without `state` the strategy would start a new sign-in instead of failing this one.
    if (!state)
      throw new SignInError(
        url.searchParams.has("error")
          ? `provider error ${logSafe(url.searchParams.get("error"))} without state`
          : "no state in the callback",
      );
    const metadata = await discover(config.issuer);
    const profile = await authenticator(request, config, metadata, null, async ({ tokens }) => {
      const verifier = verifierFor(request, state);
      if (!verifier) throw new SignInError("no verifier for this state");
      const claims = await verifyIdToken(tokens.idToken(), {
        issuer: metadata.issuer,
        audience: config.clientId,
        nonce: await nonceFor(verifier),
        keys: (refresh) => signingKeys(metadata.jwks_uri, refresh),
      });
      const userinfo =
        claims.email || !metadata.userinfo_endpoint
          ? {}
          : await fetchUserinfo(metadata.userinfo_endpoint, tokens.accessToken(), claims.sub);
      return toProfile({ ...userinfo, ...claims }, metadata.issuer);
    }).authenticate("oidc", request);

    const user = await upsertUser(env, profile);
    const returnTo = safeReturnTo(await returnToCookie(request, env).parse(request.headers.get("Cookie")), request.url);
    const headers = new Headers({ "Cache-Control": BARE_NO_STORE });
    for (const cookie of clearFlowCookies(request)) headers.append("Set-Cookie", cookie);
    headers.append("Set-Cookie", await startSession(request, env, user.id));
    return redirect(returnTo, { headers });
  } catch (thrown) {
    return signInFailed(request, env, thrown);
  }
}

/** Claims of the userinfo endpoint, for providers that keep the e-mail out of the ID token. */
async function fetchUserinfo(endpoint: string, accessToken: string, sub: string) {
  const info = await fetchJson(endpoint, { headers: { Authorization: `Bearer ${accessToken}` } });
  // OIDC Core §5.3.2: the userinfo `sub` must be the ID token's, or the answer is not about them.
  if (info.sub !== sub) throw new IdTokenError("userinfo sub differs from the ID token");
  return info as Partial<IdTokenClaims>;
}

/**
 * The member a provider's claims describe. The e-mail is judged by the forms' own rule
 * (`deliverableAddress`): an address the forms would refuse (`o,dd@example.org`) is kept to name
 * the account but never counts as verified, so it gets no mail rights (no newsletter or alerts
 * from the settings, never an admin); anything not even `x@y` is dropped.
 */
export function toProfile(claims: Partial<IdTokenClaims> & { sub: string }, issuer: string): SignInProfile {
  const text = (v: unknown, max: number) => (typeof v === "string" && v.trim() ? v.trim().slice(0, max) : null);
  const claimed = text(claims.email, 254)?.toLowerCase() ?? null;
  const fullName = text(claims.name, 200);
  const [first, ...rest] = fullName?.split(/\s+/) ?? [];
  const picture = text(claims.picture, 2048);
  const deliverable = claimed ? deliverableAddress(claimed) : null;
  const email = deliverable && "address" in deliverable ? deliverable.address : null;
  const vouched = claims.email_verified === true || claims.email_verified === "true";
  return {
    subject: `${new URL(issuer).host}|${claims.sub}`,
    email: email ?? (claimed && /^[^\s@]+@[^\s@]+$/.test(claimed) ? claimed : null),
    emailVerified: vouched && email !== null,
    firstName: text(claims.given_name, 100) ?? text(first, 100),
    lastName: text(claims.family_name, 100) ?? text(rest.join(" "), 100),
    profileImageUrl: picture && /^https:\/\//.test(picture) && URL.canParse(picture) ? picture : null,
  };
}

/**
 * A value the visitor or the provider chose, as it may appear in a log line: quoted, escaped
 * (JSON), at most 100 characters, so it cannot forge a line or flood the log.
 */
function logSafe(value: unknown): string {
  return JSON.stringify(String(value ?? "").slice(0, 100));
}

/** Why a sign-in failed, for the log (the person only sees "Sign-in failed"). */
function failureKind(error: unknown): string {
  if (error instanceof OAuth2RequestError) return `provider said ${logSafe(error.code)}`;
  if (error instanceof ReferenceError && /state on cookie/.test(error.message)) return "no state cookie";
  if (error instanceof RangeError && /State/.test(error.message)) return "state mismatch";
  if (error instanceof IdTokenError) return `ID token refused: ${error.message}`;
  if (error instanceof SignInError || error instanceof ProviderError) return error.message;
  if (error instanceof Error) return `${error.name}: ${logSafe(error.message)}`;
  return logSafe(error);
}

async function signInFailed(request: Request, env: Env, error: unknown) {
  const cancelled = error instanceof OAuth2RequestError && error.code === "access_denied";
  const headers = new Headers({ "Cache-Control": BARE_NO_STORE });
  for (const cookie of clearFlowCookies(request)) headers.append("Set-Cookie", cookie);
  if (cancelled) {
    // The visitor's own choice, not a failure: back where they started, with a neutral note.
    log("info", "[sign-in] cancelled at the provider", { requestId: requestIdOf(request) });
    const returnTo = safeReturnTo(
      await returnToCookie(request, env)
        .parse(request.headers.get("Cookie"))
        .catch(() => null),
      request.url,
    );
    return redirectWithToast(env, request, returnTo, SIGN_IN_CANCELLED, { headers });
  }
  // An expected 4xx-class event: a warning line, not an error with a stack.
  log("warn", `[sign-in] failed: ${failureKind(error)}`, { requestId: requestIdOf(request) });
  return redirectWithToast(
    env,
    request,
    "/",
    { ...SIGN_IN_FAILED, description: "We couldn't sign you in. Please try again." },
    { headers },
  );
}
