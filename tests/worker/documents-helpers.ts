import { env } from "cloudflare:test";

/** A small valid-looking PDF: `%PDF-` first, `%%EOF` last, `body` between. */
export function pdfBytes(body = "hello", size?: number): Uint8Array<ArrayBuffer> {
  const head = `%PDF-1.7\n% ${body}\n`;
  const tail = "\n%%EOF\n";
  const fill = size ? Math.max(0, size - head.length - tail.length) : 0;
  return new TextEncoder().encode(`${head}${" ".repeat(fill)}${tail}`);
}

export async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

let counter = 0;

/**
 * A document put straight into the catalogue and the bucket (the upload has tests of its own):
 * one version, current.
 */
export async function putDocument({
  path = `/documents/test${++counter}/file.pdf`,
  title = "A test document",
  category = "Reports",
  visibility = "public",
  status = "published",
  bytes = pdfBytes(`doc ${counter}`),
  fileName = "file.pdf",
  ventureId = null as string | null,
}: {
  path?: string;
  title?: string;
  category?: string;
  visibility?: "public" | "members";
  status?: "draft" | "published";
  bytes?: Uint8Array<ArrayBuffer>;
  fileName?: string;
  ventureId?: string | null;
} = {}) {
  const id = crypto.randomUUID().slice(0, 12);
  const sha256 = await sha256Hex(bytes);
  const key = `versions/${crypto.randomUUID()}`;
  await env.DOCUMENTS.put(key, bytes);
  const now = Date.now();
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO documents (id, path, title, description, category, venture_id, visibility, status, created_at, updated_at) VALUES (?1, ?2, ?3, '', ?4, ?5, ?6, ?7, ?8, ?8)",
    ).bind(id, path, title, category, ventureId, visibility, status, now),
    env.DB.prepare(
      "INSERT INTO document_versions (document_id, object_key, size, sha256, file_name, uploaded_by, uploaded_at) VALUES (?1, ?2, ?3, ?4, ?5, 'test', ?6)",
    ).bind(id, key, bytes.byteLength, sha256, fileName, now),
    env.DB.prepare(
      "UPDATE documents SET current_version_id = (SELECT max(id) FROM document_versions WHERE document_id = ?1) WHERE id = ?1",
    ).bind(id),
  ]);
  return { id, path, sha256, key, bytes };
}
