/**
 * The audit log in words a manager reads: "New version of “Annual report” (v2)" rather than
 * "document.version document Kh1V… · 973c…". The log stores what happened (action, target,
 * detail); this names the records it points at (a document's or a news item's title, a version's
 * number) as they are now, and an entry it cannot name is shown as stored.
 */
import { asc, inArray } from "drizzle-orm";
import { documents, documentVersions, newsItems } from "~/db/schema";
// Its reads share one round trip (`read`, docs/decisions/125): they wait only for the entries.
import { read, type Db } from "~/utils/db.server";
import type { AuditEntry } from "./audit.server";

export interface AuditLine extends AuditEntry {
  /** The entry as a sentence. */
  text: string;
}

const DOCUMENT = /^document (\S+)$/;
const NEWS_ID = /^news #(\d+)$/;
const NEWS_SLUG = /^news (\S+)$/;

/** Quoted as the page shows titles. */
const q = (title: string) => `“${title}”`;

export async function auditInWords(db: Db, entries: readonly AuditEntry[]): Promise<AuditLine[]> {
  const docIds = [...new Set(entries.flatMap((e) => DOCUMENT.exec(e.target)?.[1] ?? []))];
  const newsIds = [...new Set(entries.flatMap((e) => Number(NEWS_ID.exec(e.target)?.[1] ?? NaN) || []))];
  const newsSlugs = [...new Set(entries.flatMap((e) => NEWS_SLUG.exec(e.target)?.[1] ?? []))];
  const [docs, versions, newsById, newsBySlug] = await Promise.all([
    docIds.length
      ? read(
          db,
          db.select({ id: documents.id, title: documents.title }).from(documents).where(inArray(documents.id, docIds)),
        )
      : [],
    docIds.length
      ? read(
          db,
          db
            .select({
              id: documentVersions.id,
              documentId: documentVersions.documentId,
              sha256: documentVersions.sha256,
            })
            .from(documentVersions)
            .where(inArray(documentVersions.documentId, docIds))
            .orderBy(asc(documentVersions.id)),
        )
      : [],
    newsIds.length
      ? read(
          db,
          db.select({ id: newsItems.id, title: newsItems.title }).from(newsItems).where(inArray(newsItems.id, newsIds)),
        )
      : [],
    newsSlugs.length
      ? read(
          db,
          db
            .select({ slug: newsItems.slug, title: newsItems.title })
            .from(newsItems)
            .where(inArray(newsItems.slug, newsSlugs)),
        )
      : [],
  ]);
  const docTitle = new Map(docs.map((d) => [d.id, d.title]));
  // A version's number is its place among its document's versions (v1 the first upload).
  const versionNo = new Map<string, number>();
  const seen = new Map<string, number>();
  for (const v of versions) {
    const n = (seen.get(v.documentId) ?? 0) + 1;
    seen.set(v.documentId, n);
    versionNo.set(`${v.documentId} ${v.id}`, n);
    versionNo.set(`${v.documentId} ${v.sha256}`, n);
  }
  const newsTitle = new Map<string, string>([
    ...newsById.map((n) => [`news #${n.id}`, n.title] as const),
    ...newsBySlug.map((n) => [`news ${n.slug}`, n.title] as const),
  ]);

  const sentence = (e: AuditEntry): string | null => {
    const [kind, verb] = e.action.split(".");
    if (kind === "document") {
      const id = DOCUMENT.exec(e.target)?.[1] ?? "";
      const title = docTitle.get(id);
      const name = title ? q(title) : "a deleted document";
      const v = (key: string | undefined) => (key ? versionNo.get(`${id} ${key}`) : undefined);
      switch (verb) {
        case "create":
          return `New document ${name} (${e.detail === "published" ? "published" : "draft"})`;
        case "version": {
          const n = v(e.detail ?? undefined);
          return `New version of ${name}${n ? ` (v${n})` : ""}`;
        }
        case "edit":
          return `Details of ${name} changed`;
        case "publish":
          return `${cap(name)} published`;
        case "unpublish":
          return `${cap(name)} withdrawn`;
        case "restore": {
          const n = v(/^version (\d+)$/.exec(e.detail ?? "")?.[1]);
          return `An earlier version of ${name} made current${n ? ` (v${n})` : ""}`;
        }
        case "delete":
          return `${title ? q(title) : "A document"} deleted${e.detail ? ` (${e.detail})` : ""}`;
      }
      return null;
    }
    if (kind === "news") {
      const title = newsTitle.get(e.target);
      const name = title ? `news ${q(title)}` : "a deleted news item";
      const said = {
        create: "saved as a draft",
        update: "edited",
        publish: "published",
        unpublish: "unpublished",
        delete: "deleted",
      }[verb ?? ""];
      if (verb === "delete" && !title) return "A news item deleted";
      return said ? `${cap(name)} ${said}` : null;
    }
    if (e.action === "lead.unsubscribe") return `${cap(e.target)} unsubscribed${e.detail ? ` (${e.detail})` : ""}`;
    if (e.action === "lead.delete") return `${cap(e.target)} erased${e.detail ? ` (${e.detail})` : ""}`;
    if (e.action === "leads.export") return `Leads exported as CSV${e.detail ? ` (${e.detail})` : ""}`;
    if (e.action === "person.export") return `Everything about ${e.target} exported`;
    if (kind === "message") return `${cap(e.target)} marked ${verb}`;
    return null;
  };
  return entries.map((e) => ({
    ...e,
    text: sentence(e) ?? [e.action, e.target, e.detail].filter(Boolean).join(" · "),
  }));
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
