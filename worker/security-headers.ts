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

/** What lets a response's inline scripts run: a fresh render's nonce, or a stored page's hashes. */
export type ScriptSources = { nonce: string } | { hashes: readonly string[] };

/**
 * The response's CSP. `frameOrigins` are the ventures' sites the detail page may frame, from
 * configuration (embeddableOrigins): a venture without a configured domain is never framed.
 */
export function contentSecurityPolicy(scripts: ScriptSources, secure: boolean, frameOrigins: readonly string[] = []): string {
  const sources = "nonce" in scripts ? [`'nonce-${scripts.nonce}'`] : scripts.hashes.map((h) => `'${h}'`);
  const directives = [
    "default-src 'self'",
    // Only the page's own inline scripts run (by nonce or hash); what they load is trusted
    // transitively. No host allowlist, no 'unsafe-inline'.
    // A response that renders no page (a refusal, the 500) has no script to allow.
    `script-src ${(sources.length ? [...sources, "'strict-dynamic'"] : ["'none'"]).join(" ")}`,
    // Inline style attributes come from React and Radix positioning.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self'",
    "connect-src 'self'",
    `frame-src ${["https://www.youtube-nocookie.com", ...frameOrigins].join(" ")}`,
    "media-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "form-action 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ];
  if (secure) directives.push("upgrade-insecure-requests");
  return directives.join("; ");
}

/** Returns the response with the security headers set (a copy when its headers are immutable). */
export function withSecurityHeaders(
  response: Response,
  { scripts, secure, frameOrigins = [] }: { scripts: ScriptSources; secure: boolean; frameOrigins?: readonly string[] },
): Response {
  const csp = contentSecurityPolicy(scripts, secure, frameOrigins);
  let out = response;
  try {
    out.headers.set("Content-Security-Policy", csp);
  } catch {
    // Responses from fetch() have immutable headers.
    out = new Response(response.body, response);
    out.headers.set("Content-Security-Policy", csp);
  }
  for (const [name, value] of Object.entries(STATIC_SECURITY_HEADERS)) {
    out.headers.set(name, value);
  }
  return out;
}
