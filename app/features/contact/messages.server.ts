import { and, count, desc, eq, lt, or, sql, type SQL } from "drizzle-orm";
import { QueryBuilder, type SQLiteSelectQueryBuilder } from "drizzle-orm/sqlite-core";
import { contactMessages, mailOutbox, type ContactStatus } from "~/db/schema";
import { auditIfChanged } from "~/features/admin/audit.server";
import { announceMail, CONTACT_MESSAGE_ID_SLOT, queuedIds, queueMail } from "~/features/mail/outbox.server";
import { getConfig } from "~/utils/config.server";
import { batch, getDb, type Db, type Statement } from "~/utils/db.server";
import { log } from "~/utils/log.server";
import type { InboxCursor, InboxQuery } from "./inbox";
import { burstDigestMail, DIGEST_KIND, notificationMail } from "./notification-mail.server";

/**
 * A Help-form message as the form gives it: the table's own columns (app/db/schema.ts), so a new
 * column of the form reaches the INSERT with no edit here.
 */
type NewContactMessage = Omit<
  typeof contactMessages.$inferInsert,
  "id" | "createdAt" | "status" | "answeredAt" | "answeredBy"
> & {
  userId: string | null;
  userAgent: string | null;
};

/**
 * Stores one Help-form message and, in the same batch, queues its notification to the group's
 * contact address (both or neither), which keeps the message's id (its link, and erasure and export
 * of the sender, go by it); the mail queue sends it after the response, so the visitor's answer
 * never waits for or depends on SMTP. Past the form's ceiling (`pacedUntil`, the rate limiter's)
 * the message is stored as usual and the notifications are batched: one digest waits in the outbox
 * until then for every message of the burst (queued only when none is waiting already).
 */
export async function saveContactMessage(
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
  input: NewContactMessage,
  now = Date.now(),
  pacedUntil: number | null = null,
) {
  const db = getDb(env);
  const insert = db
    .insert(contactMessages)
    .values({ ...input, userAgent: input.userAgent?.slice(0, 512) ?? null, createdAt: new Date(now) });
  let notification: Statement | null = null;
  try {
    const config = getConfig(env);
    const to = config.contact.email;
    notification =
      pacedUntil === null
        ? queueMail(
            db,
            notificationMail({
              siteUrl: config.siteUrl,
              to,
              ...input,
              messageId: CONTACT_MESSAGE_ID_SLOT,
              sentAt: now,
            }),
            now,
            { aboutPreviousContactMessage: true },
          )
        : queueMail(db, burstDigestMail({ siteUrl: config.siteUrl, to }), now, {
            onlyIf: sql`NOT EXISTS (SELECT 1 FROM ${mailOutbox} WHERE ${mailOutbox.kind} = ${DIGEST_KIND} AND ${mailOutbox.status} = 'queued')`,
            notBefore: pacedUntil,
          });
  } catch (error) {
    // A message that cannot be queued must not cost the visitor theirs: it is stored alone.
    log("error", "[contact] notification not queued", { error });
  }
  const [, queued] = await batch(db, notification ? [insert, notification] : [insert]);
  if (pacedUntil === null) announceMail(env, ctx, queuedIds(queued));
}

/** The first string after every string that starts with `prefix` (case-insensitively, as NOCASE). */
const AFTER_PREFIX = "\u{10FFFF}";
const escapeLike = (word: string) => word.replace(/[\\%_]/g, (c) => `\\${c}`);
const MAX_WORDS = 5;

/** Times as the page shows them: ms since the epoch. */
const ms = (column: typeof contactMessages.createdAt | typeof contactMessages.answeredAt) => sql<number>`${column}`;

/** An inbox row: every column but who sent it from where (those stay in the export). */
const INBOX_COLUMNS = {
  id: contactMessages.id,
  name: contactMessages.name,
  email: contactMessages.email,
  subject: contactMessages.subject,
  message: contactMessages.message,
  status: contactMessages.status,
  createdAt: ms(contactMessages.createdAt),
  answeredAt: sql<number | null>`${contactMessages.answeredAt}`,
  answeredBy: contactMessages.answeredBy,
};

/** What one inbox page selects, newest first (keyset), on the indexes of migrations/0007. */
function inboxPage<T extends SQLiteSelectQueryBuilder>(
  select: T,
  query: Omit<InboxQuery, "cursor"> & { cursor: InboxCursor | null },
  limit: number,
): T {
  const m = contactMessages;
  const senderSearch = query.q !== "" && query.in === "sender";
  const where: (SQL | undefined)[] = [];
  if (query.message) {
    // The notification's link: that message alone, whatever else the URL says.
    where.push(eq(m.id, query.message));
  } else {
    if (query.status !== "all") {
      // Beside a sender search, the status is a filter on its few rows ("+" keeps SQLite off its index).
      where.push(senderSearch ? sql`+${m.status} = ${query.status}` : eq(m.status, query.status));
    }
    if (senderSearch) {
      // Two index ranges (email, name with NOCASE), spelled as a subquery: as an OR, SQLite 3.50+
      // prefers walking the whole date index to save the sort of these few rows.
      const [from, to] = [query.q, query.q + AFTER_PREFIX];
      where.push(
        sql`${m.id} IN (SELECT ${m.id} FROM ${m} WHERE ${m.email} COLLATE NOCASE >= ${from} AND ${m.email} COLLATE NOCASE < ${to}
          UNION ALL SELECT ${m.id} FROM ${m} WHERE ${m.name} COLLATE NOCASE >= ${from} AND ${m.name} COLLATE NOCASE < ${to})`,
      );
    } else if (query.q) {
      // Words anywhere in the subject cannot be an index range: the newest-first walk stops at a page.
      for (const word of query.q.split(/\s+/).slice(0, MAX_WORDS))
        where.push(sql`${m.subject} LIKE ${`%${escapeLike(word)}%`} ESCAPE '\\'`);
    }
  }
  if (query.cursor) {
    const at = new Date(query.cursor.createdAt);
    where.push(or(lt(m.createdAt, at), and(eq(m.createdAt, at), lt(m.id, query.cursor.id))));
  }
  return select
    .where(and(...where))
    .orderBy(desc(m.createdAt), desc(m.id))
    .limit(limit);
}

/**
 * The SQL of one inbox page, as listInbox runs it (for the query-plan test,
 * tests/worker/contact-inbox.test.ts, which pins that the sender search stays on its two indexes).
 */
export function inboxSql(query: Omit<InboxQuery, "cursor"> & { cursor: InboxCursor | null }, limit: number) {
  return inboxPage(new QueryBuilder().select(INBOX_COLUMNS).from(contactMessages).$dynamic(), query, limit).toSQL();
}

/** One page of messages, newest first; `next` is set when more follow. */
export async function listInbox(db: Db, query: InboxQuery, pageSize: number) {
  const results = await inboxPage(db.select(INBOX_COLUMNS).from(contactMessages).$dynamic(), query, pageSize + 1);
  const messages = results.slice(0, pageSize);
  const last = messages.at(-1);
  const next: InboxCursor | null =
    results.length > pageSize && last ? { createdAt: last.createdAt, id: last.id } : null;
  return { messages, next };
}

/** A message as the inbox shows it: the row INBOX_COLUMNS selects, typed by Drizzle from the schema. */

/** Open and answered counts, for the filter's labels (a read of the status index). */
export async function inboxCounts(db: Db): Promise<Record<ContactStatus, number>> {
  const results = await db
    .select({ status: contactMessages.status, n: count() })
    .from(contactMessages)
    .groupBy(contactMessages.status);
  const n = (status: ContactStatus) => results.find((r) => r.status === status)?.n ?? 0;
  return { open: n("open"), answered: n("answered") };
}

/**
 * Marks a message answered (by whom, when; a second "answered" keeps the first record) or open
 * again, with an audit entry (docs/decisions/017) in the same batch; false when there is no such message.
 */
export async function setMessageStatus(
  db: Db,
  id: number,
  status: ContactStatus,
  by: string,
  now = Date.now(),
): Promise<boolean> {
  const m = contactMessages;
  const update = db
    .update(m)
    .set(
      status === "answered"
        ? {
            // A second "answered" keeps the first answer's time and admin.
            answeredAt: sql`CASE WHEN ${m.status} = 'answered' THEN ${m.answeredAt} ELSE ${now} END`,
            answeredBy: sql`CASE WHEN ${m.status} = 'answered' THEN ${m.answeredBy} ELSE ${by} END`,
            status: "answered",
          }
        : { status: "open", answeredAt: null, answeredBy: null },
    )
    .where(eq(m.id, id))
    .returning({ id: m.id });
  const [updated] = await batch(db, [
    update,
    auditIfChanged(db, { actor: by, action: `message.${status}`, target: `message #${id}` }, now),
  ]);
  return updated.length > 0;
}
