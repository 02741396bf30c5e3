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
 * React hands its output over in 512-byte pieces, a whole flush at once (about 190 pieces for a
 * member's landing page). A TransformStream in workerd costs about 20 µs per piece (old: 4.9 ms
 * per landing document through a Response, against 0.75 ms for the stream itself; bench/NOTES.md),
 * so this is a stream of its own that takes every piece already queued and passes them on as one
 * chunk: a read that has not settled by the next turn of the event loop (`setTimeout(0)`, no
 * time in workerd) is the end of the flush, kept for the next pull. Nothing waits for React: a
 * flush leaves in the turn after it was written. The last bytes of a flush wait for the next
 * one only when they are the tags' first bytes, as the tags may be split between two flushes.
 */
export function closeDocumentLast(source: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let found = false;
  /** The last flush's end, when it may be the start of the tags (fewer than N bytes). */
  let held: Uint8Array | null = null;
  let next: Promise<ReadableStreamReadResult<Uint8Array>> | null = null;
  return new ReadableStream<Uint8Array>({
    // A pull must end with something enqueued or the stream closed: the stream asks again only then.
    async pull(controller) {
      for (;;) {
        const parts: Uint8Array[] = held ? [held] : [];
        held = null;
        let result = await (next ?? reader.read());
        next = null;
        let turn: Promise<null> | null = null;
        while (!result.done) {
          if (result.value.length) parts.push(result.value);
          const read = reader.read();
          turn ??= new Promise((resolve) => setTimeout(() => resolve(null), 0));
          const now = await Promise.race([read, turn]);
          if (now === null) {
            next = read;
            break;
          }
          result = now;
        }
        const data = parts.length === 1 ? parts[0]! : concat(parts);
        let out = data;
        if (!found) {
          const at = lastIndexOfEnd(data);
          if (at >= 0) {
            found = true;
            const before = data.subarray(0, at);
            const rest = data.subarray(at + N);
            out = rest.length ? concat([before, rest]) : before;
          } else if (!result.done) {
            const keep = endsWithStartOfEnd(data);
            if (keep) {
              held = data.slice(data.length - keep);
              out = data.subarray(0, data.length - keep);
            }
          }
        }
        if (out.length) controller.enqueue(out);
        if (result.done) {
          if (found) controller.enqueue(DOCUMENT_END.slice());
          controller.close();
          return;
        }
        if (out.length) return;
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
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
  return new Response(closeDocumentLast(response.body), response);
}
