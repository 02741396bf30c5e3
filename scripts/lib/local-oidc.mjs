// The local OpenID provider for `npm start` and the tests: oauth2-mock-server (a real issuer with
// discovery, JWKS, PKCE, signed ID tokens) behind a small sign-in page where any e-mail signs in.
// It runs only when OAUTH_ISSUER is unset or names the local default of wrangler.toml; a real
// provider (Google, Auth0, Keycloak…) configured in the environment is used as is.
import { createServer } from "node:http";
import { OAuth2Issuer, OAuth2Service } from "oauth2-mock-server";
import { localVars } from "./config.mjs";

/** The OAUTH_ISSUER of wrangler.toml [vars]: the local provider's address. */
export function localDefaultIssuer() {
  const issuer = localVars().OAUTH_ISSUER;
  if (!issuer) throw new Error("wrangler.toml [vars] has no OAUTH_ISSUER");
  return issuer;
}

/**
 * Starts the local provider unless a real one is configured.
 * `port`: 0 for a free port; by default the port of the local default issuer, or a free one
 * when that is taken (another checkout's `npm start`, a parallel test run).
 * `redirectHosts`: host names it may send people back to besides loopback (a test origin).
 * @param {{ port?: number, redirectHosts?: string[] }} [options]
 * @returns {Promise<{ issuer: string, stop: () => Promise<void> } | null>}
 */
export async function startLocalProviderIfNeeded(options = {}) {
  const fallback = localDefaultIssuer();
  const configured = process.env.OAUTH_ISSUER;
  if (configured && configured.replace(/\/$/, "") !== fallback.replace(/\/$/, "")) return null;
  const wanted = options.port ?? Number(new URL(fallback).port);
  const provider = await createLocalProvider(options.redirectHosts);
  let servers;
  try {
    servers = await listenOnLoopback(provider.handler, wanted);
  } catch (error) {
    if (error?.code !== "EADDRINUSE" || options.port !== undefined) throw error;
    servers = await listenOnLoopback(provider.handler, 0);
  }
  const port = servers[0].address().port;
  const issuer = `http://localhost:${port}`;
  provider.setIssuer(issuer);
  return {
    issuer,
    stop: () => Promise.all(servers.map((s) => new Promise((r) => s.close(() => r())))).then(() => {}),
  };
}

/** 127.0.0.1 and, where the machine has it, ::1 on the same port: `localhost` may be either. */
async function listenOnLoopback(handler, port) {
  const first = await listen(handler, port, "127.0.0.1");
  const actual = first.address().port;
  try {
    return [first, await listen(handler, actual, "::1")];
  } catch {
    return [first];
  }
}

function listen(handler, port, host) {
  return new Promise((resolveListen, reject) => {
    const server = createServer(handler);
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolveListen(server);
    });
  });
}

/** The provider: its request handler and the profiles typed on the sign-in page. */
export async function createLocalProvider(redirectHosts = []) {
  const allowedHosts = new Set(["localhost", "127.0.0.1", "[::1]", ...redirectHosts]);
  const issuer = new OAuth2Issuer();
  await issuer.keys.generate("RS256");
  const service = new OAuth2Service(issuer);
  /** authorization code → claims, until the code is redeemed */
  const byCode = new Map();
  /** sub → claims, for the userinfo endpoint */
  const bySub = new Map();

  service.on("beforeAuthorizeRedirect", (redirect, req) => {
    const code = redirect.url.searchParams.get("code");
    const claims = claimsFor(String(req.query.login_email ?? ""), String(req.query.login_name ?? ""));
    if (code && claims) byCode.set(code, claims);
  });
  service.on("beforeTokenSigning", (token, req) => {
    const claims = byCode.get(req.body?.code);
    if (claims) Object.assign(token.payload, claims);
  });
  service.on("beforeResponse", (_response, req) => {
    const claims = byCode.get(req.body?.code);
    if (claims) bySub.set(claims.sub, claims);
    byCode.delete(req.body?.code);
  });
  service.on("beforeUserinfo", (response, req) => {
    const sub = subjectOfBearer(req.headers.authorization);
    const claims = sub && bySub.get(sub);
    if (claims) response.body = claims;
    else response.statusCode = 401;
  });

  const mock = service.requestHandler;
  /** @type {import("node:http").RequestListener} */
  const handler = (req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method === "GET" && url.pathname === "/authorize") {
      const redirectUri = url.searchParams.get("redirect_uri") ?? "";
      if (!isAllowedRedirect(redirectUri, allowedHosts))
        return send(
          res,
          400,
          page("Unknown application", "<p>This local provider only signs in to applications on this machine.</p>"),
        );
      if (url.searchParams.has("cancel")) return cancel(res, redirectUri, url.searchParams.get("state"));
      const email = url.searchParams.get("login_email");
      if (email === null || !claimsFor(email, "")) return send(res, 200, signInPage(url.searchParams, email !== null));
    }
    mock(req, res);
  };
  return { handler, setIssuer: (url) => (issuer.url = url) };
}

function claimsFor(rawEmail, rawName) {
  const email = rawEmail.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) return null;
  const name = rawName.trim().replace(/\s+/g, " ").slice(0, 100);
  const [given, ...family] = name.split(" ");
  return {
    sub: email,
    email,
    email_verified: true,
    ...(name ? { name, given_name: given, ...(family.length ? { family_name: family.join(" ") } : {}) } : {}),
  };
}

function subjectOfBearer(header) {
  const token = /^Bearer (.+)$/.exec(header ?? "")?.[1];
  try {
    return JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8")).sub;
  } catch {
    return null;
  }
}

// Only applications on this machine (or a named test origin): never an open redirector.
function isAllowedRedirect(value, hosts) {
  try {
    const { hostname, protocol } = new URL(value);
    return (protocol === "http:" || protocol === "https:") && hosts.has(hostname);
  } catch {
    return false;
  }
}

// The provider's answer when the person cancels: what a real one sends (RFC 6749 §4.1.2.1).
function cancel(res, redirectUri, state) {
  const url = new URL(redirectUri);
  url.searchParams.set("error", "access_denied");
  url.searchParams.set("error_description", "The person cancelled sign-in.");
  if (state) url.searchParams.set("state", state);
  res.writeHead(302, { Location: url.href }).end();
}

function send(res, status, html) {
  res.writeHead(status, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" }).end(html);
}

const escapeHtml = (s) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

function signInPage(params, invalid) {
  const hidden = [...params]
    .filter(([name]) => !["login_email", "login_name", "cancel"].includes(name))
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("");
  return page(
    "Sign in",
    `<p>Local test provider: any e-mail signs in. <code>admin@example.com</code> is an administrator.</p>
<form method="get" action="/authorize">${hidden}
<label for="email">E-mail</label>
<input id="email" name="login_email" type="email" required autocomplete="email" autofocus value="${escapeHtml(params.get("login_email") ?? "")}"${invalid ? ' aria-invalid="true" aria-describedby="email-error"' : ""}>
${invalid ? '<p id="email-error" role="alert">Please enter a valid email address.</p>' : ""}
<label for="name">Name (optional)</label>
<input id="name" name="login_name" type="text" autocomplete="name" value="${escapeHtml(params.get("login_name") ?? "")}">
<div class="row"><button type="submit">Sign in</button><button type="submit" name="cancel" value="1" formnovalidate class="secondary">Cancel</button></div>
</form>`,
  );
}

function page(title, body) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Local OpenID provider</title><link rel="icon" href="data:,">
<style>body{font:16px/1.5 system-ui,sans-serif;background:#0b1120;color:#e5e7eb;display:grid;place-items:center;min-height:100vh;margin:0}
main{background:#111827;border:1px solid #374151;border-radius:12px;padding:2rem;width:min(24rem,90vw)}h1{margin-top:0}
label{display:block;margin-top:1rem;font-weight:600}input[type=email],input[type=text]{width:100%;box-sizing:border-box;padding:.5rem;border-radius:6px;border:1px solid #4b5563;background:#0b1120;color:inherit}
.row{display:flex;gap:.5rem;margin-top:1.5rem}button{padding:.5rem 1rem;border-radius:6px;border:0;background:#3b82f6;color:#fff;font-weight:600;cursor:pointer}
button.secondary{background:transparent;border:1px solid #4b5563;color:inherit}[role=alert]{color:#f87171}code{color:#93c5fd}</style></head>
<body><main><h1>${title}</h1>${body}</main></body></html>`;
}
