import { describe, expect, it } from "vitest";
import { closeDocumentLast } from "../../worker/document-stream";

// React 18 streams late scripts after `</body></html>`; the entry moves the closing tags to the end.
const encoder = new TextEncoder();

async function pipe(chunks: string[]): Promise<string> {
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      controller.close();
    },
  });
  return new Response(source.pipeThrough(closeDocumentLast())).text();
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

  it("passes a document without the closing tags through unchanged", async () => {
    const partial = "<html><body><p>no end</p>";
    expect(await pipe([partial.slice(0, 5), partial.slice(5)])).toBe(partial);
  });
});
