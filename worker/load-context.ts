import type { AppLoadContext } from "@remix-run/cloudflare";
import type { PlatformProxy } from "wrangler";

// One load context for `vite dev` (through cloudflareDevProxyVitePlugin) and the worker.
export type CloudflareContext = Omit<PlatformProxy<Env>, "dispose">;

declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    cloudflare: CloudflareContext;
    /** Fresh per request: the CSP allows exactly the scripts that carry it. */
    nonce: string;
    /** Correlates a request's log lines. */
    requestId: string;
  }
}

export function createNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

export function getLoadContext({
  request,
  context,
}: {
  request: Request;
  context: { cloudflare: CloudflareContext };
}): AppLoadContext {
  return {
    cloudflare: context.cloudflare,
    nonce: createNonce(),
    requestId: request.headers.get("cf-ray") ?? crypto.randomUUID(),
  };
}
