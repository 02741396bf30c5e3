/**
 * The portfolio's catalogue in D1 (docs/ventures.md): the one place the rest of the code gets the
 * ventures from. `shownVentures(db)` is what every public page reads (the root loader hands it to
 * the shell and the pages); a hidden venture is, for visitors, the same as an unknown one.
 */
import { and, asc, desc, eq, isNull } from "drizzle-orm";
import { keyFacts, ventureRevisions, ventures, type KeyFact, type VentureRow } from "~/db/schema";
import {
  embeddableOrigins,
  HOST,
  VENTURE_COLOURS,
  type Venture,
  type VentureIconName,
  type VentureColour,
} from "~/content/ventures";
import type { Db } from "~/utils/db.server";

/** Where a logo is served (routes/ventures.logos.$file.ts), by its R2 key's file name. */
export const LOGO_PATH = "/ventures/logos/";

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
  return db.select().from(ventures).orderBy(asc(ventures.position), asc(ventures.id));
}

/**
 * THE list of the portfolio: the shown ventures in their order, as the pages draw them. Every page,
 * feature and branch that needs the ventures calls this (once per request: the root loader's
 * `ventures` carries it to the components).
 */
export async function shownVentures(db: Db): Promise<Venture[]> {
  const rows = await db
    .select()
    .from(ventures)
    .where(eq(ventures.shown, true))
    .orderBy(asc(ventures.position), asc(ventures.id));
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
  return db
    .select()
    .from(keyFacts)
    .where(ventureId === null ? isNull(keyFacts.ventureId) : eq(keyFacts.ventureId, ventureId))
    .orderBy(desc(keyFacts.asOf), asc(keyFacts.id));
}

/** A venture's revisions, newest first. */
export async function revisionsOf(db: Db, ventureId: string) {
  return db
    .select()
    .from(ventureRevisions)
    .where(eq(ventureRevisions.ventureId, ventureId))
    .orderBy(desc(ventureRevisions.id));
}
