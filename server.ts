// The worker entry: Workers Static Assets answer files in build/client first; everything else
// reaches Remix here, and every response leaves with the security headers.
import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
// @ts-ignore - written by `remix vite:build`
import * as build from "./build/server/index.js";
import { getLoadContext, type CloudflareContext } from "./load-context";
import { withSecurityHeaders } from "./app/utils/security-headers.server";

const handleRemixRequest = createRequestHandler(build as unknown as ServerBuild);

export default {
  async fetch(request, env, ctx) {
    const started = performance.now();
    const context = getLoadContext({
      request,
      context: {
        cloudflare: {
          env,
          ctx,
          cf: request.cf as CloudflareContext["cf"],
          caches: caches as unknown as CloudflareContext["caches"],
        },
      },
    });
    const secure = new URL(request.url).protocol === "https:";
    try {
      const response = withSecurityHeaders(await handleRemixRequest(request, context), { nonce: context.nonce, secure });
      // Time in the worker before the response started (the whole render for bots, which get the
      // complete document); read by `npm run bench`.
      response.headers.set("Server-Timing", `worker;dur=${(performance.now() - started).toFixed(2)}`);
      return response;
    } catch (error) {
      console.error(`[${context.requestId}] unhandled`, error);
      return withSecurityHeaders(
        new Response("An unexpected error occurred", { status: 500 }),
        { nonce: context.nonce, secure },
      );
    }
  },
} satisfies ExportedHandler<Env>;
