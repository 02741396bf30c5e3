/**
 * Server log lines for Workers Logs: a fixed message first (what to search for), then one object
 * of fields (the request id, the cause), which Workers Logs keeps as queryable JSON. Values a
 * visitor or a provider chose go in the fields, never into the message. No line carries a query
 * string or a link's token, wherever in it they would appear.
 */
type Level = "info" | "warn" | "error";

interface LogFields {
  /** The request's id (its `cf-ray`, or a random one locally). */
  requestId?: string;
  [field: string]: unknown;
}

export function log(level: Level, message: string, fields: LogFields = {}): void {
  const line = scrub(message);
  const out: Record<string, unknown> = { level, message: line };
  for (const [key, value] of Object.entries(fields))
    out[key] = scrub(value instanceof Error ? describeError(value) : value);
  console[level === "info" ? "log" : level](line, out);
}

/**
 * The links of the newsletter's e-mails, whose last segment is a secret (routes
 * newsletter.confirm.$token and newsletter.unsubscribe.$token).
 */
const TOKEN_PATH = /(\/newsletter\/(?:confirm|unsubscribe)\/)[^\s/?#"'<>\\]+/g;
/** A query string after a URL or a path: admin searches carry addresses and names. */
const QUERY = /((?:https?:\/\/|\/)[^\s?#"'<>]*)\?[^\s#"'<>]+/g;

/**
 * A value as a log line may carry it: whatever text it holds (an error's message or stack may quote
 * the request's URL) without query strings or link tokens (docs/decisions/013-security-hardening.md).
 */
function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return value.replace(TOKEN_PATH, "$1[token]").replace(QUERY, "$1?[query]");
  if (depth > 4 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v, depth + 1)]));
}

function describeError(error: Error) {
  return { name: error.name, message: error.message, stack: error.stack };
}

/** The id a request's log lines share: Cloudflare's `cf-ray`, when there is one. */
export function requestIdOf(request: Request): string | undefined {
  return request.headers.get("cf-ray") ?? undefined;
}
