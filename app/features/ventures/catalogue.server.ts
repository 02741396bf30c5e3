/**
 * The portfolio's catalogue in D1 (docs/ventures.md): the one place the rest of the code gets the
 * ventures from. `shownVentures(db)` is what every public page reads (the root loader hands it to
 * the shell and the pages); a hidden venture is, for visitors, the same as an unknown one.
 */
import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { versionHashOf, versionLabel, versionPath } from "~/features/documents/library";
import {
  documents,
  documentVersions,
  keyFacts,
  ventureRevisions,
  ventures,
  type KeyFact,
  type VentureRow,
} from "~/db/schema";
import {
  embeddableOrigins,
  HOST,
  VENTURE_COLOURS,
  type Venture,
  type VentureIconName,
  type VentureColour,
} from "~/content/ventures";
import { read, together, type Db } from "~/utils/db.server";
import type { EveryKeyDecided } from "~/utils/decided";

/** Where a logo is served (routes/ventures.logos.$file.ts), by its R2 key's file name. */
export const LOGO_PATH = "/ventures/logos/";

/**
 * The columns a page draws, each by the field of `Venture` it becomes, and those it does not: a
 * new column of `ventures` fails `npm run typecheck` here until toVenture decides it.
 */
export const DRAWN = {
  id: "id",
  name: "name",
  tagline: "tagline",
  description: "description",
  colour: "colour",
  icon: "icon",
  stage: "status",
  website: "website",
  logo: "logo",
  video: "youtubeVideoId",
} as const satisfies Partial<Record<keyof VentureRow, keyof Venture>>;
/** Not on a page: the logo is drawn at a fixed size, the order and `shown` choose the list, the time is the admin's. */
export const NOT_DRAWN = ["logoWidth", "logoHeight", "position", "shown", "updatedAt"] as const;
export const EVERY_VENTURE_COLUMN_DRAWN_OR_NOT: EveryKeyDecided<
  keyof VentureRow,
  keyof typeof DRAWN | (typeof NOT_DRAWN)[number]
> = true;

/** A row as the pages draw a venture. */
export function toVenture(row: VentureRow): Venture {
  const host = row.website ? new URL(row.website).hostname : undefined;
  return {
    id: row.id,
    name: row.name,
    tagline: row.tagline,
    description: row.description,
    colour: (row.colour in VENTURE_COLOURS ? row.colour : "blue") as VentureColour,
    icon: row.icon as VentureIconName,
    status: row.stage,
    ...(host && HOST.test(host) ? { domain: host, website: row.website ?? undefined } : {}),
    ...(row.logo ? { logo: `${LOGO_PATH}${row.logo.replace(/^logos\//, "")}` } : {}),
    ...(row.video ? { youtubeVideoId: row.video } : {}),
  };
}

/**
 * The origins the shown ventures' websites may be framed from (the CSP's frame-src beside the video
 * player's): each website's host and its www. host.
 */
export async function ventureFrameOrigins(db: Db): Promise<readonly string[]> {
  const rows = await db.select({ website: ventures.website }).from(ventures).where(eq(ventures.shown, true));
  const hosts = rows.flatMap(({ website }) => {
    const host = website ? new URL(website).hostname : "";
    return host && HOST.test(host) ? [[host, host] as const] : [];
  });
  return embeddableOrigins(Object.fromEntries(hosts));
}

/** Every venture's id, shown or hidden: what a document's or a news item's `venture` may name. */
export async function ventureIds(db: Db): Promise<ReadonlySet<string>> {
  const rows = await db.select({ id: ventures.id }).from(ventures);
  return new Set(rows.map((r) => r.id));
}

/** Every venture, shown or hidden, in the portfolio's order (the admin's list). */
export async function allVentures(db: Db): Promise<VentureRow[]> {
  return read(db, db.select().from(ventures).orderBy(asc(ventures.position), asc(ventures.id)));
}

/**
 * THE list of the portfolio: the shown ventures in their order, as the pages draw them. Every page,
 * feature and branch that needs the ventures calls this (once per request: the root loader's
 * `ventures` carries it to the components).
 */
export async function shownVentures(db: Db): Promise<Venture[]> {
  // In the round trip of the request's other reads (the page's own): docs/decisions/125.
  const [rows] = await together(db, [
    db.select().from(ventures).where(eq(ventures.shown, true)).orderBy(asc(ventures.position), asc(ventures.id)),
  ]);
  return rows.map(toVenture);
}

/** One shown venture, or undefined when it is unknown or hidden (both answer the same). */
export async function shownVenture(db: Db, id: string): Promise<Venture | undefined> {
  const row = await db
    .select()
    .from(ventures)
    .where(and(eq(ventures.id, id), eq(ventures.shown, true)))
    .get();
  return row ? toVenture(row) : undefined;
}

/** One venture, shown or hidden (the admin's page). */
export async function ventureById(db: Db, id: string): Promise<VentureRow | undefined> {
  return db.select().from(ventures).where(eq(ventures.id, id)).get();
}

/** A venture's key facts (null: the group's), newest as-of date first. */
export async function factsOf(db: Db, ventureId: string | null): Promise<KeyFact[]> {
  const [rows] = await together(db, [
    db
      .select()
      .from(keyFacts)
      .where(ventureId === null ? isNull(keyFacts.ventureId) : eq(keyFacts.ventureId, ventureId))
      .orderBy(desc(keyFacts.asOf), asc(keyFacts.id)),
  ]);
  return rows;
}

/** A venture's revisions, newest first. */
export async function revisionsOf(db: Db, ventureId: string) {
  return db
    .select()
    .from(ventureRevisions)
    .where(eq(ventureRevisions.ventureId, ventureId))
    .orderBy(desc(ventureRevisions.id));
}

/**
 * How each fact's source is listed on the admin pages: a document version of our library by its
 * document's title and version ("Pitch deck · v2 · Nov 28, 2026"), anything else by its address.
 */
export async function factSourceLabels(db: Db, facts: readonly Pick<KeyFact, "source">[]) {
  const hashes = [...new Set(facts.flatMap((f) => versionHashOf(f.source) ?? []))];
  const labels: Record<string, string> = {};
  if (!hashes.length) return labels;
  const rows = await db
    .select({
      sha256: documentVersions.sha256,
      title: documents.title,
      uploadedAt: documentVersions.uploadedAt,
      // Its number among the document's uploads. Raw SQL (docs/decisions/024-data-layer.md): a
      // correlated count over the same table under another name.
      number: sql<number>`(SELECT count(*) FROM ${documentVersions} AS earlier
        WHERE earlier.document_id = ${documentVersions.documentId} AND earlier.id <= ${documentVersions.id})`,
    })
    .from(documentVersions)
    .innerJoin(documents, eq(documents.id, documentVersions.documentId))
    .where(inArray(documentVersions.sha256, hashes));
  for (const r of rows) labels[versionPath(r.sha256)] ??= `${r.title} · ${versionLabel(r.number, r.uploadedAt)}`;
  return labels;
}
