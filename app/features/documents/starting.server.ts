/**
 * Seeding an empty library with the group's starting documents (docs/decisions/040-fact-sheets.md):
 * each at its old URL, published, public, one version uploaded by "seed". Runs through the data
 * layer's handle (the workers pool's setup, `npm start` through wrangler's platform proxy) or, for
 * production, as SQL text and files for wrangler (scripts/documents-seed.mjs). Never in the worker.
 */
import { sql, type SQL } from "drizzle-orm";
import { documents, documentVersions } from "~/db/schema";
import { batch, toQuery, type Db } from "~/utils/db.server";
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

/**
 * The catalogue's rows for the files, as statements of one batch.
 * Raw SQL (docs/decisions/024-data-layer.md): the same statements run through the data layer and,
 * written out as text, through `wrangler d1 execute --file` for production, where no handle exists.
 */
export function seedStatements(files: readonly HashedFile[]): SQL[] {
  return files.flatMap((f) => {
    const id = `seed-${f.path
      .replace(/^\/documents\//, "")
      .replace(/\.pdf$/, "")
      .replace(/[^a-z0-9]+/gi, "-")}`;
    return [
      sql`INSERT INTO ${documents} (id, path, title, description, category, venture_id, visibility, status, created_at, updated_at)
          VALUES (${id}, ${f.path}, ${f.title}, ${f.description}, ${f.category}, ${f.ventureId}, 'public', 'published', ${f.date}, ${f.date})`,
      sql`INSERT INTO ${documentVersions} (document_id, object_key, size, sha256, file_name, uploaded_by, uploaded_at)
          VALUES (${id}, ${f.objectKey}, ${f.bytes.byteLength}, ${f.sha256}, ${f.fileName}, 'seed', ${f.date})`,
      sql`UPDATE ${documents} SET current_version_id = (SELECT max(id) FROM ${documentVersions} WHERE document_id = ${id}), current_since = ${f.date} WHERE id = ${id}`,
    ];
  });
}

/** A statement with its parameters written in (for `wrangler d1 execute --file`). */
export function inlineStatement(statement: SQL): string {
  const { sql: text, params } = toQuery(statement);
  let i = 0;
  return `${text.replace(/\?/g, () => {
    const value = params[i++];
    return value === null || value === undefined
      ? "NULL"
      : typeof value === "number"
        ? String(value)
        : `'${String(value).replaceAll("'", "''")}'`;
  })};`;
}

/**
 * Seeds the library when it holds no document; "not-empty" otherwise (an admin's library is never
 * touched). The objects first, then the catalogue in one batch.
 */
export async function seedLibrary(
  db: Db,
  bucket: R2Bucket,
  files: readonly StartingFile[],
): Promise<"seeded" | "not-empty"> {
  if (await db.select({ id: documents.id }).from(documents).limit(1).get()) return "not-empty";
  const hashed = await hashFiles(files);
  for (const f of hashed) await bucket.put(f.objectKey, f.bytes, { httpMetadata: { contentType: "application/pdf" } });
  await batch(db, seedStatements(hashed));
  return "seeded";
}
