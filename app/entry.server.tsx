import type { AppLoadContext, EntryContext } from "@remix-run/cloudflare";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToReadableStream } from "react-dom/server";
import { StylesheetProvider } from "~/components/shell/inline-stylesheet";
import { stylesheet } from "~/components/shell/stylesheet.server";
import { log } from "~/utils/log.server";
import { NonceProvider } from "~/utils/nonce-provider";
import { wantsCompleteDocument } from "~/utils/render-mode.server";

export const streamTimeout = 5_000;

// For the worker: the CSP lists this text's hash (worker/server.ts).
export { stylesheet };

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const { nonce, requestId } = loadContext;
  let status = responseStatusCode;
  // Ends a render still streaming a second after Remix's own deadline. Cleared once the render is
  // done: React keeps listening to the signal, and an abort after the stream closed throws.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error("render deadline")), streamTimeout + 1_000);
  const body = await renderToReadableStream(
    <NonceProvider value={nonce}>
      <StylesheetProvider value={stylesheet}>
        <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} nonce={nonce} />
      </StylesheetProvider>
    </NonceProvider>,
    {
      nonce,
      signal: deadline.signal,
      onError(error: unknown) {
        // Errors after the shell is sent are logged once; the shell itself has already decided
        // the status.
        if (!request.signal.aborted) {
          log("error", "render error", { requestId, error });
        }
        status = 500;
      },
    },
  );

  body.allReady.then(
    () => clearTimeout(timer),
    () => clearTimeout(timer),
  );

  // Crawlers and non-JS tools get the whole document at once; browsers get it streamed.
  if (wantsCompleteDocument(request)) {
    await body.allReady;
  }

  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  // The worker moves the closing tags to the very end (worker/document-stream.ts).
  return new Response(body, { headers: responseHeaders, status });
}

export function handleError(error: unknown, { request, context }: { request: Request; context: AppLoadContext }) {
  // Aborted requests (a visitor navigated away) are not errors of ours, nor are the requests Remix
  // refuses itself (a POST to a page without an action: 405; no such route: 404).
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return;
  log("error", "unhandled error in a loader or action", { requestId: context?.requestId, error });
}
