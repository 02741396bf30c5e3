/**
 * Headers every response carries, documents and resource routes alike. Static assets never reach
 * the worker, so public/_headers repeats STATIC_SECURITY_HEADERS (a test keeps the two equal).
 */
export const STATIC_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Strict-Transport-Security": "max-age=63072000; includeSubDomains; preload",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Permissions-Policy":
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()",
  "Cross-Origin-Opener-Policy": "same-origin",
  "X-Frame-Options": "DENY",
};

/** A CSP hash source (without its quotes) for an inline script's or style's text, as the browser hashes it. */
export async function hashSource(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return `sha256-${btoa(String.fromCharCode(...digest))}`;
}

/** What lets a response's inline scripts run: a fresh render's nonce, or a stored page's hashes. */
export type ScriptSources = { nonce: string } | { hashes: readonly string[] };

/**
 * The response's CSP. Nothing is allowed unless named (`default-src 'none'`); each fetch the site
 * makes has its directive. `stylesheet` is the hash source of the inlined stylesheet, the page's
 * only style (no style attributes, no linked stylesheet: docs/decisions/062-styles-by-hash.md).
 * `frameOrigins` are the ventures' sites the detail page may frame, from configuration
 * (embeddableOrigins): a venture without a configured domain is never framed.
 */
function contentSecurityPolicy(
  scripts: ScriptSources,
  stylesheet: string,
  secure: boolean,
  frameOrigins: readonly string[] = [],
): string {
  const sources = "nonce" in scripts ? [`'nonce-${scripts.nonce}'`] : scripts.hashes.map((h) => `'${h}'`);
  // Only the page's own inline scripts run (by nonce or hash); what they load (the modules, their
  // modulepreload links) is trusted transitively. No host allowlist, no 'unsafe-inline'.
  // A response that renders no page (a refusal, the 500) has no script to allow.
  const scriptSrc = `script-src ${(sources.length ? [...sources, "'strict-dynamic'"] : ["'none'"]).join(" ")}`;
  return `${CSP_START}; ${scriptSrc}; ${policyRest(stylesheet, secure, frameOrigins)}`;
}

const CSP_START = "default-src 'none'";

/** The directives after script-src: the same for every response of an isolate (one stylesheet, one configuration). */
let rest: { stylesheet: string; secure: boolean; frameOrigins: readonly string[]; text: string } | undefined;

function policyRest(stylesheet: string, secure: boolean, frameOrigins: readonly string[]): string {
  if (rest?.stylesheet === stylesheet && rest.secure === secure && rest.frameOrigins === frameOrigins) return rest.text;
  const directives = [
    `style-src '${stylesheet}'`,
    // Blog covers come from the feed's hosts (http(s) only: parse-feed.server.ts); blob: is the
    // venture admin's preview of a logo chosen but not yet uploaded (an object URL of the file).
    "img-src 'self' https: blob:",
    // The app's data requests and the client error reports.
    "connect-src 'self'",
    `frame-src ${["https://www.youtube-nocookie.com", ...frameOrigins].join(" ")}`,
    "form-action 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ];
  if (secure) directives.push("upgrade-insecure-requests");
  rest = { stylesheet, secure, frameOrigins, text: directives.join("; ") };
  return rest.text;
}

const STATIC_ENTRIES = Object.entries(STATIC_SECURITY_HEADERS);

/** Returns the response with the security headers set (a copy when its headers are immutable). */
export function withSecurityHeaders(
  response: Response,
  {
    scripts,
    stylesheet,
    secure,
    frameOrigins = [],
  }: { scripts: ScriptSources; stylesheet: string; secure: boolean; frameOrigins?: readonly string[] },
): Response {
  let out = response;
  // A response with a policy of its own keeps it (a document's file: `sandbox`, features/documents).
  if (response.headers.has("Content-Security-Policy")) {
    for (const [name, value] of STATIC_ENTRIES) out.headers.set(name, value);
    return out;
  }
  const csp = contentSecurityPolicy(scripts, stylesheet, secure, frameOrigins);
  try {
    out.headers.set("Content-Security-Policy", csp);
  } catch {
    // Responses from fetch() have immutable headers.
    out = new Response(response.body, response);
    out.headers.set("Content-Security-Policy", csp);
  }
  for (const [name, value] of STATIC_ENTRIES) {
    out.headers.set(name, value);
  }
  return out;
}
