/**
 * The document stream's last step, in the worker layer: every HTML document Remix renders passes
 * through here on its way out (and into the HTML cache).
 */
const DOCUMENT_END = new TextEncoder().encode("</body></html>");
const N = DOCUMENT_END.length;

/**
 * For the backward search below: how far the window moves left when its first byte is `b`, the
 * nearest place of `b` in the tags after their first byte (their length when `b` is not in them).
 */
const SHIFT = new Uint8Array(256).fill(N);
for (let k = N - 1; k >= 1; k--) SHIFT[DOCUMENT_END[k]!] = k;

/**
 * React 18 writes `</body></html>` with the shell and streams late content (Remix's deferred data
 * scripts, resolved Suspense boundaries) after it, which is invalid HTML (the W3C checker's
 * "Stray start tag script"). Browsers cope; this moves the closing tags to the very end. It looks
 * for the bytes, so the document passes through without being decoded and encoded again.
 *
 * React hands its output over in 512-byte pieces (about 160 for a member's page), so the work per
 * piece is kept to a search of its own bytes: a piece leaves as it came, uncopied, unless it ends
 * with the first bytes of the tags, which then wait for the next piece (the tags may be split
 * between two). The version before copied every piece and searched it with a call per `<`: 4–5 %
 * of a member's render in its profile.
 */
export function closeDocumentLast() {
  let found = false;
  /** The last piece's end, when it may be the start of the tags (fewer than N bytes). */
  let held: Uint8Array | null = null;
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      if (found) {
        controller.enqueue(chunk);
        return;
      }
      // Rarely a copy: only after a piece that ended with the tags' first bytes.
      const data = held ? concat(held, chunk) : chunk;
      held = null;
      const at = lastIndexOfEnd(data);
      if (at >= 0) {
        found = true;
        if (at > 0) controller.enqueue(data.subarray(0, at));
        if (at + N < data.length) controller.enqueue(data.subarray(at + N));
        return;
      }
      const keep = endsWithStartOfEnd(data);
      if (keep) {
        held = data.slice(data.length - keep);
        if (data.length > keep) controller.enqueue(data.subarray(0, data.length - keep));
      } else {
        controller.enqueue(data);
      }
    },
    flush(controller) {
      if (held) controller.enqueue(held);
      if (found) controller.enqueue(DOCUMENT_END.slice());
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
 * How many of `chunk`'s last bytes are the tags' first ones (0 to N - 1), the longest such end:
 * what must wait for the next piece. A longer end would be the whole tags, which the search found.
 */
function endsWithStartOfEnd(chunk: Uint8Array): number {
  for (let k = Math.min(N - 1, chunk.length); k > 0; k--) {
    const start = chunk.length - k;
    let j = 0;
    while (j < k && chunk[start + j] === DOCUMENT_END[j]) j++;
    if (j === k) return k;
  }
  return 0;
}

/**
 * Where the last `</body></html>` starts in `data`, or -1. React writes the tags at the very end
 * of the shell, so the search runs from the end, a window of the tags' length at a time, moving
 * by up to its length at each byte that cannot start them (Horspool's rule, backwards): a plain
 * loop over the bytes, without a call per candidate.
 */
function lastIndexOfEnd(data: Uint8Array): number {
  for (let i = data.length - N; i >= 0;) {
    let j = 0;
    while (j < N && data[i + j] === DOCUMENT_END[j]) j++;
    if (j === N) return i;
    i -= SHIFT[data[i]!]!;
  }
  return -1;
}

/** The response with its HTML body passed through closeDocumentLast; anything else as it is. */
export function withDocumentClosedLast(response: Response): Response {
  if (!response.body || !(response.headers.get("Content-Type") ?? "").startsWith("text/html")) return response;
  return new Response(response.body.pipeThrough(closeDocumentLast()), response);
}
