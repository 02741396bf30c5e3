/**
 * Seeding an empty library with the group's starting documents (docs/decisions/040-fact-sheets.md):
 * each at its old URL, published, public, one version uploaded by "seed". Runs against D1 and R2
 * bindings (the workers pool's setup, `npm start` through wrangler's platform proxy) or, for
 * production, as SQL text and files for wrangler (scripts/documents-seed.mjs). Never in the worker.
 */
import type { DocumentCategory } from "./library";

export interface StartingFile {
  path: string;
  title: string;
  description: string;
  category: DocumentCategory;
  ventureId: string | null;
  fileName: string;
  bytes: Uint8Array;
  /** The content's date, ms since the epoch: the version's upload date. */
  date: number;
}

/** A starting file with what the catalogue records of its bytes. */
export interface HashedFile extends StartingFile {
  sha256: string;
  objectKey: string;
}

export interface Statement {
  sql: string;
  params: (string | number | null)[];
}

export async function hashFiles(files: readonly StartingFile[]): Promise<HashedFile[]> {
  return Promise.all(
    files.map(async (file) => {
      const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(file.bytes)));
      const sha256 = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
      // Under the versions' prefix (the orphan sweep's), named by the bytes: seeding twice writes the same object.
      return { ...file, sha256, objectKey: `versions/seed-${sha256}` };
    }),
  );
}

/** The catalogue's rows for the files, as statements of one batch. */
export function seedStatements(files: readonly HashedFile[]): Statement[] {
  return files.flatMap((f) => {
    const id = `seed-${f.path
      .replace(/^\/documents\//, "")
      .replace(/\.pdf$/, "")
      .replace(/[^a-z0-9]+/gi, "-")}`;
    return [
      {
        sql: "INSERT INTO documents (id, path, title, description, category, venture_id, visibility, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'public', 'published', ?, ?)",
        params: [id, f.path, f.title, f.description, f.category, f.ventureId, f.date, f.date],
      },
      {
        sql: "INSERT INTO document_versions (document_id, object_key, size, sha256, file_name, uploaded_by, uploaded_at) VALUES (?, ?, ?, ?, ?, 'seed', ?)",
        params: [id, f.objectKey, f.bytes.byteLength, f.sha256, f.fileName, f.date],
      },
      {
        sql: "UPDATE documents SET current_version_id = (SELECT max(id) FROM document_versions WHERE document_id = ?) WHERE id = ?",
        params: [id, id],
      },
    ];
  });
}

/** A statement with its parameters written in (for `wrangler d1 execute --file`). */
export function inlineStatement({ sql, params }: Statement): string {
  let i = 0;
  return `${sql.replace(/\?/g, () => {
    const value = params[i++];
    return value === null || value === undefined
      ? "NULL"
      : typeof value === "number"
        ? String(value)
        : `'${value.replaceAll("'", "''")}'`;
  })};`;
}

/**
 * Seeds the library through its bindings when it holds no document; "not-empty" otherwise (an
 * admin's library is never touched). The objects first, then the catalogue in one batch.
 */
export async function seedLibrary(
  db: D1Database,
  bucket: R2Bucket,
  files: readonly StartingFile[],
): Promise<"seeded" | "not-empty"> {
  if (await db.prepare("SELECT 1 FROM documents LIMIT 1").first()) return "not-empty";
  const hashed = await hashFiles(files);
  for (const f of hashed) await bucket.put(f.objectKey, f.bytes, { httpMetadata: { contentType: "application/pdf" } });
  await db.batch(seedStatements(hashed).map((s) => db.prepare(s.sql).bind(...s.params)));
  return "seeded";
}
