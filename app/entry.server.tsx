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
  return new Response(body.pipeThrough(closeDocumentLast()), { headers: responseHeaders, status });
}

const DOCUMENT_END = "</body></html>";

/**
 * React 18 writes `</body></html>` with the shell and streams late content (Remix's single-fetch
 * data scripts, resolved Suspense boundaries) after it, which is invalid HTML (the W3C checker's
 * "Stray start tag script"). Browsers cope; this moves the closing tags to the very end.
 */
function closeDocumentLast() {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let held = false;
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      let text = decoder.decode(chunk, { stream: true });
      if (!held && text.includes(DOCUMENT_END)) {
        held = true;
        text = text.replace(DOCUMENT_END, "");
      }
      if (text) controller.enqueue(encoder.encode(text));
    },
    flush(controller) {
      const rest = decoder.decode() + (held ? DOCUMENT_END : "");
      if (rest) controller.enqueue(encoder.encode(rest));
    },
  });
}

export function handleError(error: unknown, { request }: { request: Request }) {
  // Aborted requests (a visitor navigated away) are not errors of ours.
  if (request.signal.aborted) return;
  console.error(error);
}
