import type { AppLoadContext, EntryContext } from "@remix-run/cloudflare";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import { NonceProvider } from "~/utils/nonce-provider";

export const streamTimeout = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const { nonce, requestId } = loadContext;
  let status = responseStatusCode;
  const body = await renderToReadableStream(
    <NonceProvider value={nonce}>
      <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} nonce={nonce} />
    </NonceProvider>,
    {
      nonce,
      signal: AbortSignal.timeout(streamTimeout + 1_000),
      onError(error: unknown) {
        // Errors after the shell is sent are logged once; the shell itself has already decided
        // the status.
        if (!request.signal.aborted) {
          console.error(`[${requestId}] render error`, error);
        }
        status = 500;
      },
    },
  );

  // Crawlers and non-JS tools get the whole document at once; browsers get it streamed.
  if (isbot(request.headers.get("user-agent") || "")) {
    await body.allReady;
  }

  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(body, { headers: responseHeaders, status });
}

export function handleError(error: unknown, { request }: { request: Request }) {
  // Aborted requests (a visitor navigated away) are not errors of ours.
  if (request.signal.aborted) return;
  console.error(error);
}
