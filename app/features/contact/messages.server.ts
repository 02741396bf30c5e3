import type { ContactStatus } from "~/db/schema";
import { announceMail, CONTACT_MESSAGE_ID_SLOT, queuedIds, queueMail } from "~/features/mail/outbox.server";
import type { MailMessage } from "~/features/mail/message";
import { getConfig } from "~/utils/config.server";
import { log } from "~/utils/log.server";
import type { InboxCursor, InboxQuery } from "./inbox";
import { notificationMail } from "./notification-mail.server";

export interface NewContactMessage {
  name: string;
  email: string;
  subject: string;
  message: string;
  userId: string | null;
  userAgent: string | null;
}

/**
 * Stores one Help-form message and, in the same batch, queues its notification to the group's
 * contact address (both or neither), which keeps the message's id (its link, and erasure and export
 * of the sender, go by it); the mail queue sends it after the response, so the visitor's answer
 * never waits for or depends on SMTP.
 */
export async function saveContactMessage(env: Env, ctx: Pick<ExecutionContext, "waitUntil">, input: NewContactMessage, now = Date.now()) {
  const insert = env.DB.prepare(
    "INSERT INTO contact_messages (name, email, subject, message, user_id, user_agent, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  ).bind(input.name, input.email, input.subject, input.message, input.userId, input.userAgent?.slice(0, 512) ?? null, now);
  let notification: D1PreparedStatement | null = null;
  try {
    const config = getConfig(env);
    const mail: MailMessage = notificationMail({ siteUrl: config.siteUrl, to: config.contact.email, ...input, messageId: CONTACT_MESSAGE_ID_SLOT, sentAt: now });
    notification = queueMail(env.DB, mail, now, { aboutPreviousContactMessage: true });
  } catch (error) {
    // A message that cannot be queued must not cost the visitor theirs: it is stored alone.
    log("error", "[contact] notification not queued", { error });
  }
  const [, queued] = await env.DB.batch(notification ? [insert, notification] : [insert]);
  announceMail(env, ctx, queuedIds(queued));
}

export interface InboxMessage {
  id: number;
  name: string;
  email: string;
  subject: string;
  message: string;
  status: ContactStatus;
  createdAt: number;
  answeredAt: number | null;
  answeredBy: string | null;
}

/** The first string after every string that starts with `prefix` (case-insensitively, as NOCASE). */
const AFTER_PREFIX = "\u{10FFFF}";
const escapeLike = (word: string) => word.replace(/[\\%_]/g, (c) => `\\${c}`);
const MAX_WORDS = 5;

/** The SQL of one inbox page (exported for the query-plan test). */
export function inboxSql(query: Omit<InboxQuery, "cursor"> & { cursor: InboxCursor | null }, limit: number) {
  const where: string[] = [];
  const params: unknown[] = [];
  const senderSearch = query.q !== "" && query.in === "sender";
  if (query.status !== "all") {
    // Beside a sender search, the status is a filter on its few rows ("+" keeps SQLite off its index).
    where.push(senderSearch ? "+status = ?" : "status = ?");
    params.push(query.status);
  }
  if (query.message) {
    // The notification's link: that message alone, whatever else the URL says.
    where.length = 0;
    params.length = 0;
    where.push("id = ?");
    params.push(query.message);
  } else if (senderSearch) {
    // Two index ranges (email, name with NOCASE), spelled as a subquery: as an OR, SQLite 3.50+
    // prefers walking the whole date index to save the sort of these few rows.
    where.push(
      "id IN (SELECT id FROM contact_messages WHERE email COLLATE NOCASE >= ? AND email COLLATE NOCASE < ? " +
        "UNION ALL SELECT id FROM contact_messages WHERE name COLLATE NOCASE >= ? AND name COLLATE NOCASE < ?)",
    );
    params.push(query.q, query.q + AFTER_PREFIX, query.q, query.q + AFTER_PREFIX);
  } else if (query.q) {
    // Words anywhere in the subject cannot be an index range: the newest-first walk stops at a page.
    for (const word of query.q.split(/\s+/).slice(0, MAX_WORDS)) {
      where.push("subject LIKE ? ESCAPE '\\'");
      params.push(`%${escapeLike(word)}%`);
    }
  }
  if (query.cursor) {
    where.push("(created_at < ? OR (created_at = ? AND id < ?))");
    params.push(query.cursor.createdAt, query.cursor.createdAt, query.cursor.id);
  }
  const sql = `SELECT id, name, email, subject, message, status, created_at AS createdAt, answered_at AS answeredAt, answered_by AS answeredBy
    FROM contact_messages ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
    ORDER BY created_at DESC, id DESC LIMIT ?`;
  return { sql, params: [...params, limit] };
}

/** One page of messages, newest first; `next` is set when more follow. */
export async function listInbox(db: D1Database, query: InboxQuery, pageSize: number): Promise<{ messages: InboxMessage[]; next: InboxCursor | null }> {
  const { sql, params } = inboxSql(query, pageSize + 1);
  const { results } = await db.prepare(sql).bind(...params).all<InboxMessage>();
  const messages = results.slice(0, pageSize);
  const last = messages.at(-1);
  return { messages, next: results.length > pageSize && last ? { createdAt: last.createdAt, id: last.id } : null };
}

/** Open and answered counts, for the filter's labels (a read of the status index). */
export async function inboxCounts(db: D1Database): Promise<Record<ContactStatus, number>> {
  const { results } = await db.prepare("SELECT status, COUNT(*) AS n FROM contact_messages GROUP BY status").all<{ status: string; n: number }>();
  const count = (status: ContactStatus) => results.find((r) => r.status === status)?.n ?? 0;
  return { open: count("open"), answered: count("answered") };
}

/**
 * Marks a message answered (by whom, when; a second "answered" keeps the first record) or open
 * again, with an audit entry (docs/decisions/017); false when there is no such message.
 */
export async function setMessageStatus(db: D1Database, id: number, status: ContactStatus, by: string, now = Date.now()): Promise<boolean> {
  const statement =
    status === "answered"
      ? db
          .prepare(
            `UPDATE contact_messages SET answered_at = CASE WHEN status = 'answered' THEN answered_at ELSE ? END,
               answered_by = CASE WHEN status = 'answered' THEN answered_by ELSE ? END, status = 'answered'
             WHERE id = ? RETURNING id`,
          )
          .bind(now, by, id)
      : db.prepare("UPDATE contact_messages SET status = 'open', answered_at = NULL, answered_by = NULL WHERE id = ? RETURNING id").bind(id);
  // The admin action is audited in the same batch (changes() is the UPDATE's: no entry for an unknown id).
  const [updated] = await db.batch([
    statement,
    db
      .prepare("INSERT INTO audit_log (at, actor, action, target, detail) SELECT ?, ?, ?, ?, NULL WHERE changes() > 0")
      .bind(now, by, `message.${status}`, `message #${id}`),
  ]);
  return (updated?.results.length ?? 0) > 0;
}
