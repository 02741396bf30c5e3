/**
 * News items (docs/decisions/074-news-and-feeds.md): the admin's writes, each with its audit entry
 * in the same batch, and the public reads. Publishing an item with `alert` starts its investor
 * alert in that batch too (features/alerts/alerts.server.ts), once per item whatever happens after.
 */
import { and, desc, eq, like, max, sql, type SQL } from "drizzle-orm";
import { auditLog, newsItems, type NewsItem } from "~/db/schema";
import { auditIfChanged, auditStatement } from "~/features/admin/audit.server";
import { startAlert } from "~/features/alerts/alerts.server";
import { announcedWrite, idWhere, type SaveArgs } from "~/features/alerts/announced-write.server";
import { newsPath, newsSlug, type NewsInput } from "~/features/news/news-form";
import { freeSlug } from "~/utils/free-slug.server";
import { contentChanged } from "~/features/content/generation.server";
import { batch, type Db } from "~/utils/db.server";

/** What the public lists, the feed and the venture pages show of an item. */
export const LISTED_NEWS = {
  id: newsItems.id,
  slug: newsItems.slug,
  title: newsItems.title,
  summary: newsItems.summary,
  venture: newsItems.venture,
  publishedAt: newsItems.publishedAt,
  updatedAt: newsItems.updatedAt,
};

export type ListedNews = Omit<Pick<NewsItem, keyof typeof LISTED_NEWS>, "publishedAt"> & { publishedAt: number };

const published = eq(newsItems.status, "published");

/** Published items, newest first; of one venture when `venture` is given. */
export async function listPublishedNews(
  db: Db,
  { venture, limit = 50 }: { venture?: string | null; limit?: number } = {},
): Promise<ListedNews[]> {
  const rows = await db
    .select(LISTED_NEWS)
    .from(newsItems)
    .where(and(published, venture ? eq(newsItems.venture, venture) : undefined))
    .orderBy(desc(newsItems.publishedAt), desc(newsItems.id))
    .limit(limit);
  return rows as ListedNews[];
}

/** The feed's items: the newest published, with their bodies. */
export async function feedNews(db: Db, venture: string | null, limit: number) {
  const rows = await db
    .select({ ...LISTED_NEWS, body: newsItems.body })
    .from(newsItems)
    .where(and(published, venture ? eq(newsItems.venture, venture) : undefined))
    .orderBy(desc(newsItems.publishedAt), desc(newsItems.id))
    .limit(limit);
  return rows as (ListedNews & { body: string })[];
}

/**
 * The last change to the news there is (an item's newest edit, or a news action of the audit log:
 * a deletion leaves no item), for a feed with no entries of its own; null when news never changed.
 */
export async function lastNewsChange(db: Db): Promise<number | null> {
  const [items, actions] = await Promise.all([
    db
      .select({ at: max(newsItems.updatedAt) })
      .from(newsItems)
      .get(),
    db
      .select({ at: sql<number | null>`max(${auditLog.at})` })
      .from(auditLog)
      .where(like(auditLog.action, "news.%"))
      .get(),
  ]);
  const times = [items?.at, actions?.at].filter((t): t is number => typeof t === "number");
  return times.length ? Math.max(...times) : null;
}

/** A published item by its slug, body included. */
export async function publishedNewsBySlug(db: Db, slug: string): Promise<(NewsItem & { publishedAt: number }) | null> {
  const row = await db
    .select()
    .from(newsItems)
    .where(and(eq(newsItems.slug, slug), published))
    .get();
  return (row as (NewsItem & { publishedAt: number }) | undefined) ?? null;
}

/** Every item for the admin list, the latest changed first. */
export async function listAllNews(db: Db, limit = 200): Promise<NewsItem[]> {
  return db.select().from(newsItems).orderBy(desc(newsItems.updatedAt), desc(newsItems.id)).limit(limit);
}

export async function newsById(db: Db, id: number): Promise<NewsItem | null> {
  return (await db.select().from(newsItems).where(eq(newsItems.id, id)).get()) ?? null;
}

/** A slug no other item has: the title's, or the title's with -2, -3… */
const freeNewsSlug = (db: Db, title: string) => freeSlug(db, newsItems, newsItems.slug, newsSlug(title));

/**
 * The alert a publish with `alert` starts, in the publishing batch: only while the item is
 * published with `alert` set after the batch's write, and nothing when it had one before.
 */
const alertOf = (
  item: { id: number | SQL; slug: string; title: string; summary: string; venture: string | null },
  where: SQL,
  siteUrl: string,
  now: number,
) =>
  startAlert(
    {
      kind: "news",
      id: typeof item.id === "number" ? String(item.id) : item.id,
      title: item.title,
      summary: item.summary,
      url: new URL(newsPath(item.slug), siteUrl).href,
      venture: item.venture,
    },
    now,
    sql`EXISTS (SELECT 1 FROM ${newsItems} WHERE ${where} AND ${published} AND ${newsItems.alert} = 1)`,
  );

export interface Saved {
  item: NewsItem;
  /** Whether this save started the item's alert (the caller then starts the fan-out). */
  alerted: boolean;
}

/**
 * Creates (id null) or changes an item, with its audit entry and, when it is published with
 * `alert`, its alert; `publish` publishes it (its first publish sets the date) or makes it a
 * draft. Null when the item to change does not exist.
 */
export async function saveNews(db: Db, args: SaveArgs<NewsInput>): Promise<Saved | null> {
  const { id, input, actor, siteUrl, now = Date.now() } = args;
  const { publish, ...fields } = input;
  const values = { ...fields, status: publish ? ("published" as const) : ("draft" as const), updatedAt: now };
  const action = publish ? "news.publish" : id === null ? "news.create" : "news.update";
  if (id === null) {
    const slug = await freeNewsSlug(db, fields.title);
    const bySlug = eq(newsItems.slug, slug);
    const { rows, alerted } = await announcedWrite(
      db,
      db
        .insert(newsItems)
        .values({ ...values, slug, createdAt: now, publishedAt: publish ? now : null })
        .returning(),
      auditStatement(db, { actor, action, target: `news ${slug}` }, now),
      alertOf({ ...fields, slug, id: idWhere(newsItems, newsItems.id, bySlug) }, bySlug, siteUrl, now),
    );
    return { item: rows[0]!, alerted };
  }
  const byId = eq(newsItems.id, id);
  const current = await newsById(db, id);
  if (!current) return null;
  const { rows, alerted } = await announcedWrite(
    db,
    db
      .update(newsItems)
      .set({
        ...values,
        publishedAt: publish ? sql`COALESCE(${newsItems.publishedAt}, ${now})` : newsItems.publishedAt,
      })
      .where(byId)
      .returning(),
    auditIfChanged(db, { actor, action, target: `news #${id}` }, now),
    alertOf({ ...fields, slug: current.slug, id }, byId, siteUrl, now),
  );
  return rows[0] ? { item: rows[0], alerted } : null;
}

/** Takes an item off the public pages (it becomes a draft); null when there is no such item. */
export async function unpublishNews(db: Db, id: number, actor: string, now = Date.now()): Promise<NewsItem | null> {
  const [rows] = await batch(db, [
    db.update(newsItems).set({ status: "draft", updatedAt: now }).where(eq(newsItems.id, id)).returning(),
    auditIfChanged(db, { actor, action: "news.unpublish", target: `news #${id}` }, now),
    contentChanged(db),
  ]);
  return rows[0] ?? null;
}

/** Deletes an item; its alert's record stays (ids are never reused, so no new item inherits it). */
export async function deleteNews(db: Db, id: number, actor: string, now = Date.now()): Promise<NewsItem | null> {
  const [rows] = await batch(db, [
    db.delete(newsItems).where(eq(newsItems.id, id)).returning(),
    auditIfChanged(db, { actor, action: "news.delete", target: `news #${id}` }, now),
    contentChanged(db),
  ]);
  return rows[0] ?? null;
}
