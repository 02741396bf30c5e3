import type { AppLoadContext, EntryContext } from "@remix-run/cloudflare";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToReadableStream } from "react-dom/server";
import { NonceProvider } from "~/utils/nonce-provider";
import { wantsCompleteDocument } from "~/utils/render-mode.server";

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
  if (wantsCompleteDocument(request)) {
    await body.allReady;
  }

  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(body.pipeThrough(closeDocumentLast()), { headers: responseHeaders, status });
}

const DOCUMENT_END = "</body></html>";

/**
 * React 18 writes `</body></html>` with the shell and streams late content (Remix's single-fetch
 * data scripts, resolved Suspense boundaries) after it, which is invalid HTML (the W3C checker's
 * "Stray start tag script"). Browsers cope; this moves the closing tags to the very end. It looks
 * for the bytes, so the document passes through without being decoded and encoded again; the last
 * few bytes of each chunk wait for the next one, as the tags may be split between two chunks.
 */
export function closeDocumentLast() {
  const end = new TextEncoder().encode(DOCUMENT_END);
  let held = false;
  let tail = new Uint8Array(0);
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      if (held) {
        controller.enqueue(chunk);
        return;
      }
      const data = tail.length ? concat(tail, chunk) : chunk;
      const at = indexOfBytes(data, end);
      if (at >= 0) {
        held = true;
        tail = new Uint8Array(0);
        if (at > 0) controller.enqueue(data.subarray(0, at));
        if (at + end.length < data.length) controller.enqueue(data.subarray(at + end.length));
        return;
      }
      const cut = Math.max(0, data.length - (end.length - 1));
      if (cut > 0) controller.enqueue(data.subarray(0, cut));
      tail = data.slice(cut);
    },
    flush(controller) {
      if (tail.length) controller.enqueue(tail);
      if (held) controller.enqueue(end);
    },
  });
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function indexOfBytes(haystack: Uint8Array, needle: Uint8Array): number {
  const first = needle[0];
  for (let i = haystack.indexOf(first); i >= 0 && i <= haystack.length - needle.length; i = haystack.indexOf(first, i + 1)) {
    let j = 1;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

export function handleError(error: unknown, { request }: { request: Request }) {
  // Aborted requests (a visitor navigated away) are not errors of ours, nor are the requests Remix
  // refuses itself (a POST to a page without an action: 405; no such route: 404).
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return;
  console.error(error);
}
