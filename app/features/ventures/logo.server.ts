/**
 * Venture logos (docs/ventures.md, docs/decisions/091-venture-logos.md): judged by their bytes
 * (PNG, JPEG or WebP only: an SVG or an HTML file is refused whatever its name or declared type),
 * stored in R2 under their SHA-256 and served at an immutable address with their type, `nosniff`
 * and `Content-Security-Policy: sandbox`.
 */
import { BARE_NO_STORE } from "~/utils/no-store";
export const LOGO_PREFIX = "logos/";

export interface SniffedImage {
  type: "image/png" | "image/jpeg" | "image/webp";
  ext: "png" | "jpg" | "webp";
  width: number | null;
  height: number | null;
}

const startsWith = (b: Uint8Array, sig: readonly number[], at = 0) => sig.every((v, i) => b[at + i] === v);
const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u32be = (b: Uint8Array, i: number) => ((b[i]! << 24) >>> 0) + (b[i + 1]! << 16) + (b[i + 2]! << 8) + b[i + 3]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);

/** The image's type and size from its bytes, or null when they are not a PNG, JPEG or WebP image. */
export function sniffImage(b: Uint8Array): SniffedImage | null {
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    const ihdr = startsWith(b, [0x49, 0x48, 0x44, 0x52], 12);
    return { type: "image/png", ext: "png", width: ihdr ? u32be(b, 16) : null, height: ihdr ? u32be(b, 20) : null };
  }
  if (startsWith(b, [0xff, 0xd8, 0xff])) {
    let width: number | null = null;
    let height: number | null = null;
    for (let i = 2; i + 9 < b.length;) {
      if (b[i] !== 0xff) break;
      const marker = b[i + 1]!;
      const length = u16be(b, i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        height = u16be(b, i + 5);
        width = u16be(b, i + 7);
        break;
      }
      i += 2 + length;
    }
    return { type: "image/jpeg", ext: "jpg", width, height };
  }
  if (startsWith(b, [0x52, 0x49, 0x46, 0x46]) && startsWith(b, [0x57, 0x45, 0x42, 0x50], 8)) {
    let width: number | null = null;
    let height: number | null = null;
    if (startsWith(b, [0x56, 0x50, 0x38, 0x20], 12) && b.length >= 30) {
      width = u16le(b, 26) & 0x3fff;
      height = u16le(b, 28) & 0x3fff;
    } else if (startsWith(b, [0x56, 0x50, 0x38, 0x4c], 12) && b.length >= 25) {
      const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
      width = (bits & 0x3fff) + 1;
      height = ((bits >> 14) & 0x3fff) + 1;
    } else if (startsWith(b, [0x56, 0x50, 0x38, 0x58], 12) && b.length >= 30) {
      width = u24le(b, 24) + 1;
      height = u24le(b, 27) + 1;
    }
    return { type: "image/webp", ext: "webp", width, height };
  }
  return null;
}

/** Hex SHA-256 of the bytes. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(bytes)));
  return [...digest].map((x) => x.toString(16).padStart(2, "0")).join("");
}

/** A logo's served file name: its hash and extension. */
export const LOGO_FILE = /^[0-9a-f]{64}\.(png|jpg|webp)$/;

const TYPES: Record<string, SniffedImage["type"]> = { png: "image/png", jpg: "image/jpeg", webp: "image/webp" };

/** The answer for `/ventures/logos/<file>`: the stored bytes, or 404. */
export async function serveLogo(bucket: R2Bucket, file: string): Promise<Response> {
  const match = LOGO_FILE.exec(file);
  const object = match ? await bucket.get(`${LOGO_PREFIX}${file}`) : null;
  if (!match || !object) return new Response("Not Found", { status: 404, headers: { "Cache-Control": BARE_NO_STORE } });
  return new Response(object.body, {
    headers: {
      "Content-Type": TYPES[match[1]!]!,
      "Content-Length": String(object.size),
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "sandbox",
      // Named by its bytes: the address never shows other bytes.
      "Cache-Control": "public, max-age=31536000, immutable",
    },
  });
}
