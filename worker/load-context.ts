import type { AppLoadContext } from "@remix-run/cloudflare";
import type { PlatformProxy } from "wrangler";
import { Timings } from "../app/utils/timing.server";

// One load context for `vite dev` (through cloudflareDevProxyVitePlugin) and the worker.
export type CloudflareContext = Omit<PlatformProxy<Env>, "dispose">;

declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    cloudflare: CloudflareContext;
    /** Fresh per request: the CSP allows exactly the scripts that carry it. */
    nonce: string;
    /** Correlates a request's log lines. */
    requestId: string;
    /** Where the request's loaders, actions and D1 statements are timed (`Server-Timing`). */
    timings: Timings;
  }
}

function createNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

export function getLoadContext({
  request,
  context,
  timings = new Timings(),
}: {
  request: Request;
  context: { cloudflare: CloudflareContext };
  /** The worker's, which the request's D1 session already records into; `vite dev` gets its own. */
  timings?: Timings;
}): AppLoadContext {
  return {
    cloudflare: context.cloudflare,
    nonce: createNonce(),
    requestId: request.headers.get("cf-ray") ?? crypto.randomUUID(),
    timings,
  };
}
