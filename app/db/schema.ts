import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Members, upserted from the OpenID provider at each sign-in (docs/decisions/004-sign-in.md). */
export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    /** The provider's `sub` claim, prefixed with the issuer host. */
    subject: text("subject").notNull(),
    email: text("email"),
    /** The provider's `email_verified` at the last sign-in. */
    emailVerified: integer("email_verified", { mode: "boolean" }).notNull().default(false),
    firstName: text("first_name"),
    lastName: text("last_name"),
    profileImageUrl: text("profile_image_url"),
    role: text("role", { enum: ["member", "admin"] }).notNull().default("member"),
    createdAt: integer("created_at", { mode: "timestamp_ms" })
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
    lastLoginAt: integer("last_login_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("users_subject_unique").on(t.subject), index("users_email_idx").on(t.email)],
);

/**
 * Server-side sessions (migrations/0003): `id` is the SHA-256 of the token in the member's
 * cookie. Checked on every request against an idle and an absolute limit.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    lastSeenAt: integer("last_seen_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("sessions_user_id_idx").on(t.userId), index("sessions_last_seen_at_idx").on(t.lastSeenAt)],
);

/** Newsletter subscribers (docs/decisions/005-newsletter-and-leads.md). `email` is stored trimmed and lower-cased. */
export const leads = sqliteTable(
  "leads",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    email: text("email").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name"),
    source: text("source").notNull(),
    userAgent: text("user_agent"),
    referrer: text("referrer"),
    /** The client's own timestamp from the submitted metadata, as sent (ISO 8601). */
    clientTimestamp: text("client_timestamp"),
    /** Same-origin path of the page the signup came from. */
    pagePath: text("page_path"),
    subscribedAt: integer("subscribed_at", { mode: "timestamp_ms" })
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [
    uniqueIndex("leads_email_unique").on(t.email),
    // Newest-first listing, the 7- and 30-day windows and keyset pagination.
    index("leads_subscribed_at_idx").on(t.subscribedAt, t.id),
    // Counts per source.
    index("leads_source_idx").on(t.source),
  ],
);

/** Fixed-window signup counters per client (a keyed hash of its address), for the rate limit. */
export const rateLimits = sqliteTable(
  "rate_limits",
  {
    key: text("key").notNull(),
    /** Start of the window, ms since the epoch. */
    windowStart: integer("window_start").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index("rate_limits_window_idx").on(t.windowStart)],
);

/**
 * Signups per UTC day (`subscribed_at` / 86 400 000) and source, kept in step with `leads` by the
 * triggers of migrations/0001, so the dashboard's totals never count every lead.
 */
export const leadDailyCounts = sqliteTable(
  "lead_daily_counts",
  {
    day: integer("day").notNull(),
    source: text("source").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.source] })],
);

export type User = typeof users.$inferSelect;
export type Lead = typeof leads.$inferSelect;
export type NewLead = typeof leads.$inferInsert;

/** Messages from the Help page's contact form (stored so someone can answer). */
export const contactMessages = sqliteTable(
  "contact_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    email: text("email").notNull(),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    /** The signed-in member who sent it, if any. */
    userId: text("user_id"),
    userAgent: text("user_agent"),
    createdAt: integer("created_at", { mode: "timestamp_ms" })
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [index("contact_messages_created_at_idx").on(t.createdAt)],
);

export type ContactMessage = typeof contactMessages.$inferSelect;

/**
 * E-mails waiting for, or done with, delivery (migrations/0004, app/features/mail/outbox.server.ts).
 * Times are ms since the epoch; the bodies are blanked once sent or given up.
 */
export const mailOutbox = sqliteTable(
  "mail_outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** What it is for: "newsletter-confirm", "contact-notification"… */
    kind: text("kind").notNull(),
    recipient: text("recipient").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body").notNull(),
    /** Extra header fields as a JSON object (List-Unsubscribe…). */
    headers: text("headers").notNull().default("{}"),
    status: text("status", { enum: ["queued", "sent", "failed"] }).notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    /** When it may next be tried; while a run holds it, the end of that run's lease. */
    nextAttemptAt: integer("next_attempt_at").notNull(),
    lastError: text("last_error"),
    createdAt: integer("created_at").notNull(),
    sentAt: integer("sent_at"),
  },
  (t) => [index("mail_outbox_status_due_idx").on(t.status, t.nextAttemptAt), index("mail_outbox_created_at_idx").on(t.createdAt)],
);
