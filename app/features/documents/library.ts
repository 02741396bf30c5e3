/**
 * The document library's words and URLs, for the server and the browser alike
 * (docs/decisions/072-document-urls.md).
 */
import { DOCUMENT_CATEGORIES, DOCUMENT_VISIBILITIES, type DocumentCategory, type DocumentVisibility } from "~/db/enums";
import { formatMediumDate } from "~/utils/format";
import { slugify } from "~/utils/slug";

export { DOCUMENT_CATEGORIES, DOCUMENT_VISIBILITIES, type DocumentCategory, type DocumentVisibility };

export const DOCUMENTS_PATH = "/documents";
/** The admin's library (app/content/pages.ts names the same path) and one document's page. */
export const ADMIN_DOCUMENTS_PATH = "/admin/documents";
export const adminDocumentPath = (id: string) => `${ADMIN_DOCUMENTS_PATH}/${id}`;
/** Where a version's own URL lives: `/documents/v/<sha256>.pdf`. */
const VERSION_PREFIX = `${DOCUMENTS_PATH}/v/`;
const VERSION_PATH = /^\/documents\/v\/([0-9a-f]{64})\.pdf$/;

/** A version's own URL: content-addressed, so it never serves other bytes. */
export const versionPath = (sha256: string) => `${VERSION_PREFIX}${sha256}.pdf`;

/** The SHA-256 a version URL names, or null for any other path. */
export const versionHashOf = (path: string): string | null => VERSION_PATH.exec(path)?.[1] ?? null;

/** The stable URL of a new upload: its id keeps it unique, the slug makes it readable. */
export const stablePath = (id: string, title: string) =>
  `${DOCUMENTS_PATH}/${id}/${slugify(title, { max: 60, fallback: "document" })}.pdf`;

/**
 * "2.4 MiB" style sizes, from a byte count: one unit everywhere the library shows a size (the
 * lists, the upload form's limit and its refusal), binary like the limit DOCUMENT_MAX_BYTES.
 */
export function formatBytes(bytes: number): string {
  const one = (n: number) => n.toFixed(1).replace(/\.0$/, "");
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${one(bytes / 1024)} KiB`;
  return `${one(bytes / (1024 * 1024))} MiB`;
}

/** A version as an admin names it: "v3 · Nov 28, 2026" (its number among the document's uploads, its day). */
export function versionLabel(number: number, uploadedAt: number): string {
  return `v${number} · ${formatMediumDate(new Date(uploadedAt))}`;
}

/**
 * The one answer for a document path that serves no file (unknown, withdrawn, or members-only to a
 * visitor): /documents with this flag, which says so, and to a visitor how members get in.
 */
export const UNAVAILABLE_PARAM = "unavailable";
export const UNAVAILABLE_TEXT = {
  notice: "This document is not available.",
  members: "Members: sign in",
} as const;

export const VISIBILITY_LABELS: Record<DocumentVisibility, string> = {
  public: "Public",
  members: "Members only",
  rooms: "Rooms only",
};

/** Where a document stands, in the admin's words: a draft never published, or withdrawn after. */
export function documentStatus(doc: { status: string; withdrawnAt: number | null }): string {
  if (doc.status === "published") return "Published";
  return doc.withdrawnAt === null ? "Draft" : "Withdrawn";
}
