/**
 * Errors the browser's error boundary catches, reported to the worker (POST /api/client-errors)
 * so they reach Workers Logs. A report holds the error's message and the page's path, nothing
 * that names the visitor: no query string, no user agent, e-mail addresses and long numbers
 * masked. The server cleans it again; the browser's copy is only what it sends.
 */
const CLIENT_ERROR_PATH = "/api/client-errors";
export const CLIENT_ERROR_MAX_BYTES = 2048;
const MAX_MESSAGE = 300;
const MAX_PATH = 200;

interface ClientErrorReport {
  message: string;
  path: string;
}

/** A report as the server may log it, or null when `input` is not one. */
export function cleanClientError(input: unknown): ClientErrorReport | null {
  if (!input || typeof input !== "object") return null;
  const { message, path } = input as Record<string, unknown>;
  if (typeof message !== "string" || !message.trim()) return null;
  const [cleanPath = ""] = typeof path === "string" ? path.split(/[?#]/) : [];
  return {
    message: message
      .replace(/[^\s@]+@[^\s@]+/g, "[email]")
      .replace(/\d{6,}/g, "[number]")
      .replace(/\s+/g, " ")
      .trim()
      .slice(0, MAX_MESSAGE),
    path: /^\/(?!\/)/.test(cleanPath) ? cleanPath.slice(0, MAX_PATH) : "/",
  };
}

/** Sends the report without waiting for an answer; failures are dropped (there is no one to tell). */
export function reportClientError(error: unknown, path: string): void {
  const report = cleanClientError({ message: error instanceof Error ? error.message : String(error), path });
  if (!report) return;
  const body = JSON.stringify(report);
  try {
    if (!navigator.sendBeacon?.(CLIENT_ERROR_PATH, new Blob([body], { type: "application/json" }))) {
      void fetch(CLIENT_ERROR_PATH, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body,
        keepalive: true,
      }).catch(() => {});
    }
  } catch {
    // Reporting must never break the error screen.
  }
}
