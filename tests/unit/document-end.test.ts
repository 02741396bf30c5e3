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

/** The chunks that leave, one string each. */
async function pieces(chunks: string[]): Promise<string[]> {
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      controller.close();
    },
  });
  const out: string[] = [];
  const reader = source.pipeThrough(closeDocumentLast()).getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) out.push(new TextDecoder().decode(r.value));
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

  it("finds the tags however they are spread, also past a piece that ended like their start", async () => {
    // "<", "</" and "</body><" before the real tags: each piece ending like the tags' first bytes waits.
    const doc = "<html><body><p>a <</p><p></</p></body><p>x</p></body></html><script>late()</script>";
    const fixed = "<html><body><p>a <</p><p></</p></body><p>x</p><script>late()</script></body></html>";
    for (let i = 1; i < doc.length; i++)
      for (let j = i + 1; j < doc.length; j += 3)
        expect(await pipe([doc.slice(0, i), doc.slice(i, j), doc.slice(j)])).toBe(fixed);
  });

  it("passes a piece on as it came unless it ends like the tags' start", async () => {
    expect(await pieces(["<p>one</p>", "<p>two</p><", "/p></body></html><script>x()</script>"])).toEqual([
      "<p>one</p>",
      "<p>two</p>",
      "</p>",
      "<script>x()</script>",
      "</body></html>",
    ]);
  });

  it("passes a document without the closing tags through unchanged", async () => {
    const partial = "<html><body><p>no end</p>";
    expect(await pipe([partial.slice(0, 5), partial.slice(5)])).toBe(partial);
  });
});
