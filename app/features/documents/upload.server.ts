/**
 * An admin's upload, read as it streams in (docs/decisions/071-document-streaming.md): the
 * multipart body is parsed chunk by chunk; the file part goes to R2 in fixed 5 MiB parts while its
 * SHA-256 is computed, so at most one part is held in memory, never the whole file, and never
 * twice. The bytes decide what it is (`%PDF-` first, `%%EOF` in the last KiB), not its name or
 * type. Every byte of the body counts against DOCUMENT_MAX_BYTES (with a small allowance for the
 * text fields and the framing, and at most MAX_PARTS parts): past it the partial object is
 * discarded and the answer is 413 (docs/decisions/084-upload-limits.md).
 */

/** Every version's object lives under this prefix (the orphan sweep lists it). */
export const OBJECT_PREFIX = "versions/";

/** R2's multipart parts must be at least 5 MiB and (but for the last) all the same size. */
export const PART_BYTES = 5 * 1024 * 1024;
/** The text fields together (title, description, …): far more than any real form. */
const MAX_FIELD_BYTES = 64 * 1024;
/** The parts' own headers and boundaries, beside the file and the text fields. */
const MAX_FRAMING_BYTES = 64 * 1024;
/** Parts in one form: the upload forms have under ten; more is not a form of ours. */
export const MAX_PARTS = 32;
/**
 * A browser's form over the limit is read to its end (its bytes thrown away) before the 413 page,
 * up to this size: Chromium shows "the connection was reset" for an answer that comes while it
 * is still sending (docs/decisions/084-upload-limits.md). Beyond it, or without a declared
 * length (a chunked body), the reading stops at once.
 */
export const DRAIN_MAX_BYTES = 128 * 1024 * 1024;
/** Where `%%EOF` may stand: within the file's last KiB (PDF 1.7, 7.5.5 lets trailing bytes follow). */
const EOF_WINDOW = 1024;
const PDF_MAGIC = new TextEncoder().encode("%PDF-");
const PDF_EOF = new TextEncoder().encode("%%EOF");

export type UploadRefusal =
  | { kind: "too-large"; maxBytes: number }
  | { kind: "not-pdf" }
  | { kind: "no-file" }
  | { kind: "bad-body"; message: string };

/** The parsed upload: its text fields, and the stored file (or why it was refused and not kept). */
export interface Upload {
  fields: Map<string, string>;
  file: { objectKey: string; size: number; sha256: string; fileName: string } | null;
  refusal: UploadRefusal | null;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  const first = needle[0]!;
  for (
    let i = haystack.indexOf(first, from);
    i !== -1 && i <= haystack.length - needle.length;
    i = haystack.indexOf(first, i + 1)
  ) {
    let j = 1;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (!a.length) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

class TooLarge extends Error {}
class NotPdf extends Error {}

/**
 * Writes one file to R2 as it arrives: a plain put when it fits in one part, else a multipart
 * upload. Checks the PDF signature and the size on the way, hashes every byte once.
 */
class ObjectWriter {
  private part = new Uint8Array(PART_BYTES);
  private filled = 0;
  private partNumber = 0;
  private parts: R2UploadedPart[] = [];
  private multipart: R2MultipartUpload | null = null;
  private head: Uint8Array = new Uint8Array(0);
  private tail: Uint8Array = new Uint8Array(0);
  private digest = new (crypto as unknown as { DigestStream: typeof DigestStream }).DigestStream("SHA-256");
  private hasher = this.digest.getWriter();
  size = 0;

  constructor(
    private readonly bucket: R2Bucket,
    readonly key: string,
    private readonly maxBytes: number,
  ) {
    // A discarded upload aborts the hash: its digest then rejects, which nobody awaits.
    this.digest.digest.catch(() => {});
  }

  async write(chunk: Uint8Array): Promise<void> {
    if (!chunk.length) return;
    this.size += chunk.length;
    if (this.size > this.maxBytes) throw new TooLarge();
    if (this.head.length < PDF_MAGIC.length) {
      this.head = concat(this.head, chunk.subarray(0, PDF_MAGIC.length - this.head.length));
      if (this.head.some((b, k) => b !== PDF_MAGIC[k])) throw new NotPdf();
    }
    this.tail = concat(this.tail, chunk).slice(-EOF_WINDOW);
    await this.hasher.write(chunk);
    let at = 0;
    while (at < chunk.length) {
      const n = Math.min(PART_BYTES - this.filled, chunk.length - at);
      this.part.set(chunk.subarray(at, at + n), this.filled);
      this.filled += n;
      at += n;
      if (this.filled === PART_BYTES) await this.flushPart();
    }
  }

  private async flushPart(): Promise<void> {
    this.multipart ??= await this.bucket.createMultipartUpload(this.key, {
      httpMetadata: { contentType: "application/pdf" },
    });
    this.parts.push(await this.multipart.uploadPart(++this.partNumber, this.part));
    // A fresh buffer: the one just sent is R2's until the part is stored.
    this.part = new Uint8Array(PART_BYTES);
    this.filled = 0;
  }

  /** Completes the object; its SHA-256 as lower-case hex. */
  async finish(): Promise<string> {
    if (this.size < PDF_MAGIC.length || indexOf(this.tail, PDF_EOF) === -1) throw new NotPdf();
    await this.hasher.close();
    const hex = [...new Uint8Array(await this.digest.digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
    const rest = this.part.subarray(0, this.filled);
    if (!this.multipart) {
      // R2 checks the bytes it stored against the hash computed here.
      await this.bucket.put(this.key, rest, { httpMetadata: { contentType: "application/pdf" }, sha256: hex });
    } else {
      if (this.filled) this.parts.push(await this.multipart.uploadPart(++this.partNumber, rest));
      await this.multipart.complete(this.parts);
    }
    this.part = new Uint8Array(0);
    return hex;
  }

  /** Leaves nothing behind: an unfinished multipart upload aborted, a finished object deleted. */
  async discard(): Promise<void> {
    this.part = new Uint8Array(0);
    await this.hasher.abort().catch(() => {});
    await Promise.all([this.multipart?.abort().catch(() => {}), this.bucket.delete(this.key)]);
  }
}

/** `name` and `filename` of a part's Content-Disposition (quoted or not; `filename*` preferred). */
function dispositionOf(headers: string): { name: string | null; fileName: string | null } {
  const line = /^content-disposition:(.*)$/im.exec(headers)?.[1] ?? "";
  const param = (key: string) => {
    const m = new RegExp(`(?:^|;)\\s*${key}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;]*))`, "i").exec(line);
    return m ? (m[1] ?? m[2] ?? "").replace(/\\(.)/g, "$1").trim() : null;
  };
  const extended = param("filename\\*");
  let fileName = param("filename");
  if (extended) {
    const m = /^UTF-8''(.*)$/i.exec(extended);
    try {
      if (m) fileName = decodeURIComponent(m[1]!);
    } catch {
      // A malformed extended name: the plain one stands.
    }
  }
  return { name: param("name"), fileName };
}

/**
 * Reads a `multipart/form-data` request: text fields into `fields`, the part named `file` into
 * R2 under `objectKey`. On a refusal nothing is stored: a file over `maxBytes` stops the reading
 * there (the rest of the body is never read); a file that is not a PDF is skipped and the other
 * fields are still read, so the form can be shown again as typed.
 */
export async function readUpload(
  request: Request,
  bucket: R2Bucket,
  { maxBytes, objectKey }: { maxBytes: number; objectKey: string },
): Promise<Upload> {
  const fields = new Map<string, string>();
  const refuse = (refusal: UploadRefusal): Upload => ({ fields, file: null, refusal });
  const type = request.headers.get("Content-Type") ?? "";
  const boundary = /^multipart\/form-data;.*\bboundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type);
  if (!boundary || !request.body) return refuse({ kind: "bad-body", message: "Send the form as multipart/form-data." });
  // Every byte of the body counts: the file, the text fields and the parts' framing together.
  const bodyLimit = maxBytes + MAX_FIELD_BYTES + MAX_FRAMING_BYTES;
  const declared = Number(request.headers.get("Content-Length") ?? NaN);
  /** Reads the rest of a browser's over-size form and throws it away, or stops at once. */
  const drainable = Number.isSafeInteger(declared) && declared <= DRAIN_MAX_BYTES;
  // The whole body cannot be the file's plus its fields: no byte of the file is kept. A browser's
  // form is still read, for its text fields (the page shows them again) and to its end.
  const overDeclared = Number.isSafeInteger(declared) && declared > bodyLimit;
  if (overDeclared && !drainable) {
    await request.body.cancel().catch(() => {});
    return refuse({ kind: "too-large", maxBytes });
  }
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const delimiter = encoder.encode(`\r\n--${boundary[1] ?? boundary[2]}`);
  const blankLine = encoder.encode("\r\n\r\n");
  const reader = request.body.getReader();
  // The body as if preceded by CRLF, so that the first boundary looks like every other.
  let buffer: Uint8Array = encoder.encode("\r\n");
  let state: "preamble" | "boundary" | "headers" | "body" | "done" = "preamble";
  let part: { name: string | null; fileName: string | null } = { name: null, fileName: null };
  let text: Uint8Array[] = [];
  let fieldBytes = 0;
  let writer: ObjectWriter | null = null;
  let skipping = false;
  let refusal: UploadRefusal | null = null;
  let stored: Upload["file"] = null;
  let received = 0;
  let parts = 0;

  /** A refusal that ends the reading: nothing of the file is kept. */
  const stop = async (why: UploadRefusal): Promise<Upload> => {
    await writer?.discard();
    if (stored) await bucket.delete(stored.objectKey);
    if (why.kind === "too-large" && drainable) await drain(reader);
    else await reader.cancel().catch(() => {});
    return refuse(why);
  };

  try {
    while (state !== "done") {
      if (state === "preamble") {
        const at = indexOf(buffer, delimiter);
        if (at !== -1) {
          buffer = buffer.subarray(at + delimiter.length);
          state = "boundary";
          continue;
        }
        buffer = buffer.subarray(Math.max(0, buffer.length - delimiter.length));
      } else if (state === "boundary") {
        // After a boundary: "--" ends the body, CRLF starts a part.
        if (buffer.length >= 2) {
          if (buffer[0] === 45 && buffer[1] === 45) state = "done";
          else if (buffer[0] === 13 && buffer[1] === 10) {
            buffer = buffer.subarray(2);
            state = "headers";
          } else return await stop({ kind: "bad-body", message: "The form's parts are malformed." });
          continue;
        }
      } else if (state === "headers") {
        const at = indexOf(buffer, blankLine);
        if (at !== -1) {
          if (++parts > MAX_PARTS) return await stop({ kind: "bad-body", message: "The form has too many parts." });
          part = dispositionOf(decoder.decode(buffer.subarray(0, at)));
          buffer = buffer.subarray(at + blankLine.length);
          state = "body";
          // One file, in the field named "file"; any other file part is read past, unkept, and so
          // is an empty file input (no file chosen: its part has an empty name and no bytes).
          skipping =
            part.fileName !== null &&
            (part.name !== "file" || part.fileName === "" || overDeclared || Boolean(stored || refusal));
          if (overDeclared && part.name === "file" && part.fileName) refusal = { kind: "too-large", maxBytes };
          if (part.fileName !== null && !skipping) writer = new ObjectWriter(bucket, objectKey, maxBytes);
          continue;
        }
        if (buffer.length > 16 * 1024)
          return await stop({ kind: "bad-body", message: "A form part's headers are too long." });
      } else {
        const at = indexOf(buffer, delimiter);
        // What surely precedes any delimiter goes on now; what may be the start of one waits.
        const safe = at === -1 ? Math.max(0, buffer.length - delimiter.length + 1) : at;
        const bytes = buffer.subarray(0, safe);
        buffer = buffer.subarray(safe);
        if (writer) {
          try {
            await writer.write(bytes);
          } catch (error) {
            if (error instanceof TooLarge) return await stop({ kind: "too-large", maxBytes });
            if (!(error instanceof NotPdf)) throw error;
            // Not a PDF: the file is dropped, the other fields still read (the form keeps them).
            await writer.discard();
            writer = null;
            refusal = { kind: "not-pdf" };
            skipping = true;
          }
        } else if (!skipping && bytes.length) {
          fieldBytes += bytes.length;
          if (fieldBytes > MAX_FIELD_BYTES)
            return await stop({ kind: "bad-body", message: "The form's text fields are too long." });
          text.push(bytes.slice());
        }
        if (at !== -1) {
          buffer = buffer.subarray(delimiter.length);
          if (writer) {
            const done = writer;
            writer = null;
            try {
              const sha256 = await done.finish();
              stored = { objectKey: done.key, size: done.size, sha256, fileName: part.fileName || "document.pdf" };
            } catch (error) {
              await done.discard();
              if (!(error instanceof NotPdf)) throw error;
              refusal = { kind: "not-pdf" };
            }
          } else if (!skipping && part.name && part.fileName === null) {
            fields.set(part.name, decoder.decode(concatAll(text)));
          }
          text = [];
          state = "boundary";
          continue;
        }
      }
      const read = await reader.read().catch(() => null);
      // The client went away mid-upload (a cancel, a lost connection): nothing is kept.
      if (!read) return await stop({ kind: "bad-body", message: "The upload was interrupted: nothing was stored." });
      const { value, done } = read;
      if (done) return await stop({ kind: "bad-body", message: "The form ended before its closing boundary." });
      received += value.length;
      if (received > bodyLimit) return await stop({ kind: "too-large", maxBytes });
      buffer = concat(buffer, value);
    }
  } catch (error) {
    await writer?.discard();
    if (stored) await bucket.delete(stored.objectKey);
    throw error;
  }
  await reader.cancel().catch(() => {});
  return { fields, file: stored, refusal: refusal ?? (stored ? null : { kind: "no-file" }) };
}

/** Reads a body to its end and throws every byte away (up to DRAIN_MAX_BYTES in all). */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let read = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.length;
      if (read > DRAIN_MAX_BYTES) break;
    }
  } catch {
    return;
  }
  await reader.cancel().catch(() => {});
}

function concatAll(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
