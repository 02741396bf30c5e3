/**
 * A document's bytes as a PDF viewer and a CDN expect them (docs/decisions/071-document-streaming.md):
 * streamed from R2, never buffered; ETag from the SHA-256, conditional requests (304), single byte
 * ranges (206), HEAD; inline with a safe file name, sandboxed, never sniffed.
 */
import { PRIVATE_NO_STORE } from "~/utils/no-store";
import type { ServedVersion } from "./catalogue.server";

/** A version's URL never serves other bytes; the stable URL is revalidated each time (unpublish is at once). */
export const IMMUTABLE = "public, max-age=31536000, immutable";
export const REVALIDATE = "public, no-cache";
export const MEMBERS_ONLY = PRIVATE_NO_STORE;

/**
 * `Content-Disposition: inline` with the file name: an ASCII fallback (quoted, RFC 6266) and,
 * when the name is not plain ASCII, its UTF-8 form (RFC 5987 `filename*`). Control characters,
 * quotes, slashes and backslashes never reach the header, before or after NFKD (which turns the
 * fullwidth `＂／＼` into them).
 */
export function contentDisposition(fileName: string): string {
  // Filtered after NFKD too: a fullwidth quote, slash or backslash (＂／＼) becomes one there.
  const safe = (text: string) =>
    [...text].filter((c) => c.charCodeAt(0) >= 0x20 && c !== "\x7f" && !'"\\/'.includes(c)).join("");
  const cleaned = safe(fileName).trim() || "document.pdf";
  const name = /\.pdf$/i.test(cleaned) ? cleaned : `${cleaned}.pdf`;
  // The plain fallback keeps no `;` or `=` either: even a parser that ignores the quotes finds one
  // `filename=` in it (the exact name is in `filename*`, percent-encoded).
  const ascii = safe(name.normalize("NFKD"))
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]|[;=]/g, "_");
  if (ascii === name) return `inline; filename="${name}"`;
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `inline; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** `Range: bytes=…` as one range within `size`; "none" without one (or with several: the whole file); "unsatisfiable" past the end. */
export function parseRange(
  header: string | null,
  size: number,
): { offset: number; length: number } | "none" | "unsatisfiable" {
  if (!header) return "none";
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return "none";
  const [, first, last] = match;
  if (first === "" && last === "") return "none";
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0) return "unsatisfiable";
    const length = Math.min(suffix, size);
    return { offset: size - length, length };
  }
  const offset = Number(first);
  if (offset >= size) return "unsatisfiable";
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (end < offset) return "none";
  return { offset, length: end - offset + 1 };
}

/** Whether an If-None-Match list names this ETag (weak or strong, or `*`). */
function matchesEtag(header: string, etag: string): boolean {
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t.replace(/^W\//, "") === etag;
  });
}

/**
 * The response for one version of a document. `counted` is called when the response sends the
 * whole file (a download, not a viewer's probe or later range, a HEAD or a revalidation).
 */
export async function fileResponse(
  request: Request,
  bucket: R2Bucket,
  version: ServedVersion,
  cacheControl: string,
  counted: () => void,
): Promise<Response | null> {
  const etag = `"${version.sha256}"`;
  const lastModified = new Date(version.modifiedAt).toUTCString();
  const headers = new Headers({
    "Content-Type": "application/pdf",
    ETag: etag,
    "Last-Modified": lastModified,
    "Accept-Ranges": "bytes",
    "Cache-Control": cacheControl,
    // The reader's copy is named after the document's title, not the uploader's working file name.
    "Content-Disposition": contentDisposition(version.title),
    "X-Content-Type-Options": "nosniff",
    // A PDF opened in the browser runs no script of its own against the site's origin.
    "Content-Security-Policy": "sandbox",
    // Members-only answers differ by session: never one for another (the stable URL is one URL).
    ...(cacheControl === MEMBERS_ONLY ? { Vary: "Cookie" } : {}),
  });
  const ifNoneMatch = request.headers.get("If-None-Match");
  const ifModifiedSince = request.headers.get("If-Modified-Since");
  const notModified = ifNoneMatch
    ? matchesEtag(ifNoneMatch, etag)
    : ifModifiedSince !== null && Date.parse(ifModifiedSince) >= Math.floor(version.modifiedAt / 1000) * 1000;
  if (notModified) return new Response(null, { status: 304, headers });

  // If-Range with another validator: the whole (new) file rather than a piece of it.
  const ifRange = request.headers.get("If-Range");
  const rangeHeader = ifRange && ifRange !== etag && ifRange !== lastModified ? null : request.headers.get("Range");
  const range = parseRange(rangeHeader, version.size);
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${version.size}`);
    return new Response(null, { status: 416, headers });
  }
  const status = range === "none" ? 200 : 206;
  const length = range === "none" ? version.size : range.length;
  headers.set("Content-Length", String(length));
  if (range !== "none")
    headers.set("Content-Range", `bytes ${range.offset}-${range.offset + length - 1}/${version.size}`);

  if (request.method === "HEAD") {
    return new Response(null, { status, headers });
  }
  const object = await bucket.get(version.objectKey, range === "none" ? {} : { range });
  // The catalogue names an object R2 does not have: answered as an unknown path by the caller.
  if (!object || !("body" in object)) return null;
  // A download is a read of the whole file: a 200, or a range that is the whole file. A viewer's
  // probe (`bytes=0-0`), its later ranges, a HEAD and a 304 are not (071).
  if (range === "none" || (range.offset === 0 && range.length === version.size)) counted();
  return new Response(object.body, { status, headers });
}
