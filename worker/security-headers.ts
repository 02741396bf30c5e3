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

/**
 * The response's CSP. `frameOrigins` are the ventures' sites the detail page may frame, from
 * configuration (embeddableOrigins): a venture without a configured domain is never framed.
 */
export function contentSecurityPolicy(nonce: string, secure: boolean, frameOrigins: readonly string[] = []): string {
  const directives = [
    "default-src 'self'",
    // Scripts run only with this response's nonce; what they load is trusted transitively.
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
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
  { nonce, secure, frameOrigins = [] }: { nonce: string; secure: boolean; frameOrigins?: readonly string[] },
): Response {
  let out = response;
  try {
    out.headers.set("Content-Security-Policy", contentSecurityPolicy(nonce, secure, frameOrigins));
  } catch {
    // Responses from fetch() or the Cache API have immutable headers.
    out = new Response(response.body, response);
    out.headers.set("Content-Security-Policy", contentSecurityPolicy(nonce, secure, frameOrigins));
  }
  for (const [name, value] of Object.entries(STATIC_SECURITY_HEADERS)) {
    out.headers.set(name, value);
  }
  return out;
}
