/**
 * Server log lines for Workers Logs: a fixed message first (what to search for), then one object
 * of fields (the request id, the cause), which Workers Logs keeps as queryable JSON. Values a
 * visitor or a provider chose go in the fields, never into the message.
 */
type Level = "info" | "warn" | "error";

export interface LogFields {
  /** The request's id (its `cf-ray`, or a random one locally). */
  requestId?: string;
  [field: string]: unknown;
}

export function log(level: Level, message: string, fields: LogFields = {}): void {
  const out: Record<string, unknown> = { level, message };
  for (const [key, value] of Object.entries(fields)) out[key] = value instanceof Error ? describeError(value) : value;
  console[level === "info" ? "log" : level](message, out);
}

function describeError(error: Error) {
  return { name: error.name, message: error.message, stack: error.stack };
}

/** The id a request's log lines share: Cloudflare's `cf-ray`, when there is one. */
export function requestIdOf(request: Request): string | undefined {
  return request.headers.get("cf-ray") ?? undefined;
}
