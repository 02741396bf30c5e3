import { describe, expect, it } from "vitest";
import { closeDocumentLast } from "../../worker/document-stream";

// React 18 streams late scripts after `</body></html>`; the entry moves the closing tags to the end.
const encoder = new TextEncoder();

/** All chunks queued at once (one flush of React's). */
async function pipe(chunks: string[]): Promise<string> {
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      controller.close();
    },
  });
  return new Response(closeDocumentLast(source)).text();
}

/** Each chunk written only after the previous one was read (separate flushes): the chunks that leave. */
async function pipeApart(chunks: string[]): Promise<string[]> {
  let i = 0;
  const source = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        await new Promise((r) => setTimeout(r, 5));
        if (i < chunks.length) controller.enqueue(encoder.encode(chunks[i++]));
        else controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  const out: string[] = [];
  const decoder = new TextDecoder();
  const reader = closeDocumentLast(source).getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read())
    out.push(decoder.decode(r.value, { stream: true }));
  return out;
}

const DOC = "<!DOCTYPE html><html><body><p>Café ✓</p></body></html><script>late()</script><script>later()</script>";
const FIXED = "<!DOCTYPE html><html><body><p>Café ✓</p><script>late()</script><script>later()</script></body></html>";

describe("closeDocumentLast", () => {
  it("moves </body></html> after the late scripts, wherever the chunks are cut", async () => {
    expect(await pipe([DOC])).toBe(FIXED);
    for (let i = 1; i < DOC.length; i++) {
      expect(await pipe([DOC.slice(0, i), DOC.slice(i)])).toBe(FIXED);
    }
    // One character per chunk: the tags arrive spread over fourteen chunks.
    expect(await pipe([...DOC])).toBe(FIXED);
  });

  it("does the same when the pieces come in separate flushes, the tags split between two", async () => {
    for (let i = 1; i < DOC.length; i += 3) {
      expect((await pipeApart([DOC.slice(0, i), DOC.slice(i)])).join("")).toBe(FIXED);
    }
    // "<", "</" and "</body><" before the real tags: a flush ending like the tags' first bytes waits.
    const doc = "<html><body><p>a <</p><p></</p></body><p>x</p></body></html><script>late()</script>";
    const fixed = "<html><body><p>a <</p><p></</p></body><p>x</p><script>late()</script></body></html>";
    for (let i = 1; i < doc.length; i += 2)
      expect((await pipeApart([doc.slice(0, i), doc.slice(i)])).join("")).toBe(fixed);
  });

  it("passes a flush's pieces on as one chunk, and each flush as soon as it is written", async () => {
    // React's pieces of one flush, the stream still open: all of them arrive at once, without waiting for more.
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < DOC.length; i += 5) controller.enqueue(encoder.encode(DOC.slice(i, i + 5)));
      },
    });
    const reader = closeDocumentLast(source).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe(DOC.replace("</body></html>", ""));
    await reader.cancel();
    // Separate flushes leave separately; only the tags' first bytes ("<") wait for the next.
    expect(await pipeApart(["<p>one</p>", "<p>two</p><", "/p></body></html><script>x()</script>"])).toEqual([
      "<p>one</p>",
      "<p>two</p>",
      "</p><script>x()</script>",
      "</body></html>",
    ]);
  });

  it("passes a document without the closing tags through unchanged", async () => {
    const partial = "<html><body><p>no end</p>";
    expect(await pipe([partial.slice(0, 5), partial.slice(5)])).toBe(partial);
    expect((await pipeApart([partial.slice(0, 5), partial.slice(5)])).join("")).toBe(partial);
  });
});
