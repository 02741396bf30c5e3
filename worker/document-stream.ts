/**
 * The document stream's last step, in the worker layer: every HTML document Remix renders passes
 * through here on its way out (and into the HTML cache).
 */
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

/**
 * Where `needle` starts in `haystack`, or -1. React writes the closing tags at the very end of the
 * shell's last chunk, so the search runs from the end: scanning forward would stop at every `<` of
 * the page first.
 */
function indexOfBytes(haystack: Uint8Array, needle: Uint8Array): number {
  const first = needle[0];
  if (first === undefined) return -1;
  for (
    let i = haystack.lastIndexOf(first, haystack.length - needle.length);
    i >= 0;
    i = haystack.lastIndexOf(first, i - 1)
  ) {
    let j = 1;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
    if (i === 0) break;
  }
  return -1;
}

/** The response with its HTML body passed through closeDocumentLast; anything else as it is. */
export function withDocumentClosedLast(response: Response): Response {
  if (!response.body || !(response.headers.get("Content-Type") ?? "").startsWith("text/html")) return response;
  return new Response(response.body.pipeThrough(closeDocumentLast()), response);
}
