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
    role: text("role", { enum: ["member", "admin"] })
      .notNull()
      .default("member"),
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

import {
  CONSENT_METHODS,
  DOCUMENT_CATEGORIES,
  DOCUMENT_VISIBILITIES,
  LEAD_STATUSES,
  LEAD_TOPICS,
  ROOM_VIEW_KINDS,
  SET_STAGES,
  VENTURE_STAGES,
} from "./enums";

export {
  CONSENT_METHODS,
  LEAD_STATUSES,
  LEAD_TOPICS,
  type ConsentMethod,
  type LeadStatus,
  type LeadTopic,
} from "./enums";

/**
 * Newsletter subscribers (docs/decisions/005-newsletter-and-leads.md) and their consent record
 * (016). `email` is stored trimmed and lower-cased.
 */
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
    /** When the latest signup was made (a new signup after unsubscribing starts a new record). */
    subscribedAt: integer("subscribed_at", { mode: "timestamp_ms" })
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
    status: text("status", { enum: LEAD_STATUSES }).notNull().default("pending"),
    consentMethod: text("consent_method", { enum: CONSENT_METHODS }).notNull().default("double-opt-in"),
    /** The version id of the consent wording the form showed (CONSENT_COPY in features/leads/newsletter.ts). */
    consentVersion: text("consent_version"),
    confirmedAt: integer("confirmed_at", { mode: "timestamp_ms" }),
    unsubscribedAt: integer("unsubscribed_at", { mode: "timestamp_ms" }),
    /**
     * When another spelling of this mailbox (the same folded address) was erased or suppressed
     * (migrations/0013, docs/decisions/060): the CSV and the person export leave the record out.
     */
    suppressedAt: integer("suppressed_at", { mode: "timestamp_ms" }),
    /** The newsletter or the investor alerts (migrations/0018): one lead per address and topic. */
    topic: text("topic", { enum: LEAD_TOPICS }).notNull().default("newsletter"),
    /**
     * When a newsletter lead was first handed to the newsletter host (migrations/0022,
     * docs/decisions/098): an export of scope "new" leaves it out from then on.
     */
    handedOffAt: integer("handed_off_at", { mode: "timestamp_ms" }),
    /**
     * An alerts lead's choice of ventures (docs/decisions/099): a JSON array of venture ids, null
     * for every venture and the group's own items.
     */
    alertVentures: text("alert_ventures"),
    /** An alerts lead's choice of kinds ("news", "documents", "events"), a JSON array; null for all. */
    alertKinds: text("alert_kinds"),
    /**
     * An `alerts` lead's own consent to a reminder the day before each event (migrations/0021,
     * docs/decisions/097): given in the alerts signup or in Settings.
     */
    eventReminders: integer("event_reminders", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    uniqueIndex("leads_email_topic_unique").on(t.email, t.topic),
    // Lists and exports of one status, newest first.
    index("leads_status_subscribed_at_idx").on(t.status, t.subscribedAt, t.id),
    // Newest-first listing, the 7- and 30-day windows and keyset pagination.
    index("leads_subscribed_at_idx").on(t.subscribedAt, t.id),
    // A source in every status, newest first (the workbench).
    index("leads_source_subscribed_at_idx").on(t.source, t.subscribedAt, t.id),
    // A source with a status and a date range, newest first (the workbench).
    index("leads_source_status_subscribed_at_idx").on(t.source, t.status, t.subscribedAt, t.id),
    // Name prefixes, case-insensitive.
    index("leads_first_name_lower_idx").on(sql`lower(${t.firstName})`),
    index("leads_last_name_lower_idx").on(sql`lower(${t.lastName})`),
    // The dashboard's audience counts from the index alone (migrations/0026): the hand-off's
    // handed-off and not yet (and its scope "new"), the alerts subscribers by venture choice.
    index("leads_audience_idx").on(t.topic, t.status, t.suppressedAt, t.handedOffAt, t.alertVentures),
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
 * Leads per UTC day (`subscribed_at` / 86 400 000), source and status, kept in step with `leads`
 * by the triggers of migrations/0005, so the dashboard's totals never count every lead.
 */
export const leadDailyCounts = sqliteTable(
  "lead_daily_counts",
  {
    day: integer("day").notNull(),
    source: text("source").notNull(),
    status: text("status", { enum: LEAD_STATUSES }).notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.source, t.status] })],
);

/**
 * Confirmation links (migrations/0005): the SHA-256 of each token, never the token. A token is
 * valid for 7 days and once; confirming removes every token of the lead.
 */
export const newsletterTokens = sqliteTable(
  "newsletter_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    leadId: integer("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    index("newsletter_tokens_lead_id_idx").on(t.leadId, t.createdAt),
    index("newsletter_tokens_created_at_idx").on(t.createdAt),
  ],
);

export type User = typeof users.$inferSelect;
export type Lead = typeof leads.$inferSelect;
export type NewLead = typeof leads.$inferInsert;

/** Where a contact message stands (docs/decisions/018-contact-inbox.md). */
export const CONTACT_STATUSES = ["open", "answered"] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

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
    /** Open until an admin marks it answered in /admin/messages (migrations/0007). */
    status: text("status", { enum: CONTACT_STATUSES }).notNull().default("open"),
    answeredAt: integer("answered_at", { mode: "timestamp_ms" }),
    /** The answering admin's e-mail address at the time. */
    answeredBy: text("answered_by"),
  },
  (t) => [
    // Newest first, keyset (created_at, id), all or per status.
    index("contact_messages_created_at_idx").on(t.createdAt, t.id),
    index("contact_messages_status_created_at_idx").on(t.status, t.createdAt, t.id),
    // Case-insensitive prefix search on the sender.
    index("contact_messages_email_nocase_idx").on(sql`${t.email} COLLATE NOCASE`),
    index("contact_messages_name_nocase_idx").on(sql`${t.name} COLLATE NOCASE`),
  ],
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
    /** Where answers go (Reply-To), when not to the sender (migrations/0007). */
    replyTo: text("reply_to"),
    /** The Help message a contact notification is about (migrations/0009): erasure and export find it by this. */
    contactMessageId: integer("contact_message_id"),
    status: text("status", { enum: ["queued", "sent", "failed"] })
      .notNull()
      .default("queued"),
    attempts: integer("attempts").notNull().default(0),
    /** When it is due: first at once, then after each failure's retry delay (the Cron Trigger's safety net reads it). */
    nextAttemptAt: integer("next_attempt_at").notNull(),
    /** While a run or the queue's consumer sends it, the end of that claim (migrations/0011); 0 otherwise. */
    leasedUntil: integer("leased_until").notNull().default(0),
    lastError: text("last_error"),
    createdAt: integer("created_at").notNull(),
    sentAt: integer("sent_at"),
    /** The id the transport gave it when sent (migrations/0014): what its delivery events name. */
    messageId: text("message_id"),
  },
  (t) => [
    index("mail_outbox_status_due_idx").on(t.status, t.nextAttemptAt),
    index("mail_outbox_created_at_idx").on(t.createdAt),
    index("mail_outbox_contact_message_id_idx").on(t.contactMessageId),
    index("mail_outbox_message_id_idx").on(t.messageId),
  ],
);

/** What a delivery event reports (app/features/mail/events.server.ts). */
export const MAIL_EVENT_KINDS = ["delivered", "deferred", "bounced", "complained", "rejected", "failed"] as const;
export type MailEventKind = (typeof MAIL_EVENT_KINDS)[number];

/**
 * Delivery events received (migrations/0014): the event's id (a redelivery counts once), its kind
 * and time, never the address; the dashboard counts the last 30 days.
 */
export const mailEvents = sqliteTable(
  "mail_events",
  {
    eventId: text("event_id").primaryKey(),
    kind: text("kind", { enum: MAIL_EVENT_KINDS }).notNull(),
    at: integer("at").notNull(),
    /** Random, per handling that inserted the row: the batch's effects run only where it is theirs. */
    claim: text("claim"),
  },
  (t) => [index("mail_events_at_idx").on(t.at, t.kind)],
);

/** Admin actions on records (migrations/0006): who, what, when; the target without personal data. */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
    /** The admin's e-mail. */
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    target: text("target").notNull(),
    detail: text("detail"),
  },
  (t) => [index("audit_log_at_idx").on(t.at)],
);

/**
 * Addresses that must never be mailed or re-added (migrations/0008, docs/decisions/019): the
 * HMAC-SHA-256 of the folded address under MAIL_SECRET's suppression key, never the address.
 * Written when a person's data is erased or says "this wasn't me"; lifted only when the address's verified owner subscribes
 * again from Settings.
 */
export const suppressedEmails = sqliteTable("suppressed_emails", {
  emailHash: text("email_hash").primaryKey(),
  /** The id of the MAIL_SECRET key it was made under (migrations/0012); null before issue 25. */
  keyId: text("key_id"),
  /** Why: "erased". */
  reason: text("reason").notNull(),
  createdAt: integer("created_at").notNull(),
});

/**
 * Confirmation e-mails sent per address (migrations/0010, docs/decisions/016): a keyed hash of the
 * folded address, never the address, and the count, which caps them at 3 unless the owner confirms.
 */
export const confirmationCounts = sqliteTable("confirmation_counts", {
  addressHash: text("address_hash").primaryKey(),
  sent: integer("sent").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * The document library's catalogue (migrations/0016, docs/decisions/070): one row per document,
 * its stable URL path and the version it serves. Its files are R2 objects (`document_versions`).
 */
export const documents = sqliteTable(
  "documents",
  {
    id: text("id").primaryKey(),
    /** The stable URL's path ("/documents/..."), never changed once given. */
    path: text("path").notNull(),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    category: text("category", { enum: DOCUMENT_CATEGORIES }).notNull(),
    /** The venture it belongs to (a catalogue id); null for the group. */
    ventureId: text("venture_id"),
    visibility: text("visibility", { enum: DOCUMENT_VISIBILITIES }).notNull().default("public"),
    status: text("status", { enum: ["draft", "published"] })
      .notNull()
      .default("draft"),
    /** The version the stable URL serves (a `document_versions` id of this document). */
    currentVersionId: integer("current_version_id"),
    /** When the current version became current (the stable URL's Last-Modified): upload or restore. */
    currentSince: integer("current_since"),
    /** When a published document was withdrawn (unpublished); null once published again, or never. */
    withdrawnAt: integer("withdrawn_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("documents_path_unique").on(t.path),
    index("documents_status_category_idx").on(t.status, t.category),
  ],
);

/** Every uploaded file of a document: an R2 object, kept until the document is deleted. */
export const documentVersions = sqliteTable(
  "document_versions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    documentId: text("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    /** The R2 object's key. */
    objectKey: text("object_key").notNull(),
    size: integer("size").notNull(),
    /** Lower-case hex SHA-256 of the bytes: the version's URL and the ETag. */
    sha256: text("sha256").notNull(),
    /** The name the file had on the uploader's machine (Content-Disposition). */
    fileName: text("file_name").notNull(),
    /** The admin's e-mail, or "seed" for the starting documents. */
    uploadedBy: text("uploaded_by").notNull(),
    uploadedAt: integer("uploaded_at").notNull(),
    /** When an admin withdrew this version: its own URL then serves nothing (null: it is served). */
    withdrawnAt: integer("withdrawn_at"),
  },
  (t) => [
    uniqueIndex("document_versions_object_key_unique").on(t.objectKey),
    index("document_versions_document_id_idx").on(t.documentId, t.uploadedAt),
    index("document_versions_sha256_idx").on(t.sha256),
  ],
);

/** Downloads per document per UTC day (`Date.now() / 86 400 000`), counted after the response. */
export const documentDownloads = sqliteTable(
  "document_downloads",
  {
    documentId: text("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    day: integer("day").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.day] })],
);

/** Where a news item stands (docs/decisions/074-news-and-feeds.md). */
export const NEWS_STATUSES = ["draft", "published"] as const;
export type NewsStatus = (typeof NEWS_STATUSES)[number];

/**
 * News the admins write at /admin/news (migrations/0017, docs/decisions/074): the body is
 * Markdown, rendered on the server with raw HTML off. `slug` is fixed when the item is made (a
 * link never breaks); `publishedAt` is set at the first publish and kept through an unpublish.
 */
export const newsItems = sqliteTable(
  "news_items",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    summary: text("summary").notNull(),
    body: text("body").notNull(),
    /** A venture's id (app/content/ventures.ts), or null for the group. */
    venture: text("venture"),
    status: text("status", { enum: NEWS_STATUSES }).notNull().default("draft"),
    /** Whether publishing it e-mails the investor-alert subscribers (once: alert_sends). */
    alert: integer("alert", { mode: "boolean" }).notNull().default(false),
    publishedAt: integer("published_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("news_items_slug_unique").on(t.slug),
    // The public list and the feed, newest first, all or per venture.
    index("news_items_status_published_at_idx").on(t.status, t.publishedAt, t.id),
    index("news_items_venture_status_published_at_idx").on(t.venture, t.status, t.publishedAt, t.id),
  ],
);

export type NewsItem = typeof newsItems.$inferSelect;

/**
 * One investor alert per published item (migrations/0017, docs/decisions/075): its key (kind and
 * id) is the item's, so a second publish finds it and sends nothing again. What the mail says is
 * kept here, so the fan-out never reads the item again.
 */
export const alertSends = sqliteTable(
  "alert_sends",
  {
    /** "news", "document", "event" or "event-reminder" (docs/decisions/097). */
    kind: text("kind").notNull(),
    itemId: text("item_id").notNull(),
    title: text("title").notNull(),
    summary: text("summary").notNull(),
    /** The item's public address. */
    url: text("url").notNull(),
    createdAt: integer("created_at").notNull(),
    /** Set once every subscriber confirmed at the time has a mail queued. */
    fannedOutAt: integer("fanned_out_at"),
    /** The item's venture id, null for the group (migrations/0022): the subscribers' choice filters on it. */
    venture: text("venture"),
  },
  (t) => [primaryKey({ columns: [t.kind, t.itemId] }), index("alert_sends_fanned_out_at_idx").on(t.fannedOutAt)],
);

/**
 * Who an alert was queued for (migrations/0017): one row per alert and lead, written in the batch
 * that queues the mail, so a lead gets an alert's mail once however often the fan-out runs.
 */
export const alertRecipients = sqliteTable(
  "alert_recipients",
  {
    kind: text("kind").notNull(),
    itemId: text("item_id").notNull(),
    leadId: integer("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
    /** The outbox row of its mail ("sent N of M" reads its status; null once pruned). */
    mailId: integer("mail_id"),
  },
  (t) => [primaryKey({ columns: [t.kind, t.itemId, t.leadId] }), index("alert_recipients_lead_id_idx").on(t.leadId)],
);

/** The newsletter hosts whose import columns a hand-off writes (docs/decisions/098). */
export const HANDOFF_FORMATS = ["substack", "ghost", "buttondown"] as const;
export type HandoffFormat = (typeof HANDOFF_FORMATS)[number];
/** "new": confirmed newsletter subscribers not handed off before; "all": every one. */
export const HANDOFF_SCOPES = ["new", "all"] as const;
export type HandoffScope = (typeof HANDOFF_SCOPES)[number];

/**
 * Each export of the newsletter's subscribers to its host (migrations/0022, docs/decisions/098):
 * when, by which admin, in which host's columns and scope, and how many addresses it held.
 */
export const subscriberHandoffs = sqliteTable(
  "subscriber_handoffs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: integer("at").notNull(),
    /** The admin's e-mail. */
    actor: text("actor").notNull(),
    format: text("format", { enum: HANDOFF_FORMATS }).notNull(),
    scope: text("scope", { enum: HANDOFF_SCOPES }).notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [index("subscriber_handoffs_at_idx").on(t.at, t.id)],
);

/** The leads one hand-off held (its consent records); an erased lead's rows go with it (cascade). */
export const handoffLeads = sqliteTable(
  "handoff_leads",
  {
    handoffId: integer("handoff_id")
      .notNull()
      .references(() => subscriberHandoffs.id, { onDelete: "cascade" }),
    leadId: integer("lead_id")
      .notNull()
      .references(() => leads.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.handoffId, t.leadId] }), index("handoff_leads_lead_id_idx").on(t.leadId)],
);

/** Where an event stands (docs/decisions/095-events.md): a cancelled one stays, marked. */
export const EVENT_STATUSES = ["scheduled", "cancelled"] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/**
 * The group's calendar (migrations/0021, docs/decisions/095): events the admins write at
 * /admin/events. A timed event is two instants (ms) and the organiser's IANA zone; an all-day one
 * is two dates (`startDate`, `endDate`, inclusive) whose instants are the zone's midnights, for
 * ordering. `uid` (RFC 5545) and `slug` never change; `sequence` grows with each change a
 * calendar must follow (time, title, place, status…).
 */
export const events = sqliteTable(
  "events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    uid: text("uid").notNull(),
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    /** Markdown, rendered by the news renderer. */
    description: text("description").notNull(),
    /** A venture's id (the catalogue), or null for the group. */
    venture: text("venture"),
    timezone: text("timezone").notNull(),
    allDay: integer("all_day", { mode: "boolean" }).notNull().default(false),
    startsAt: integer("starts_at").notNull(),
    endsAt: integer("ends_at").notNull(),
    /** All-day only: the first and last day (YYYY-MM-DD). */
    startDate: text("start_date"),
    endDate: text("end_date"),
    location: text("location").notNull(),
    /** An https:// link (webcast or venue), or null. */
    url: text("url"),
    status: text("status", { enum: EVENT_STATUSES }).notNull().default("scheduled"),
    published: integer("published", { mode: "boolean" }).notNull().default(false),
    /** Whether publishing it e-mails the investor-alert subscribers (once: alert_sends). */
    alert: integer("alert", { mode: "boolean" }).notNull().default(false),
    sequence: integer("sequence").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("events_slug_unique").on(t.slug),
    uniqueIndex("events_uid_unique").on(t.uid),
    // The public list and the feeds, by start, all or per venture; the reminders' window.
    index("events_published_starts_at_idx").on(t.published, t.startsAt, t.id),
    index("events_venture_published_starts_at_idx").on(t.venture, t.published, t.startsAt, t.id),
  ],
);

export type CalendarEvent = typeof events.$inferSelect;

/**
 * The group's ventures (migrations/0020, docs/ventures.md): the one source of every page that
 * shows the portfolio. `id` is the slug of `/subsidiary/<id>`, fixed once created. Hidden ventures
 * answer as unknown ones. Seeded with the nine of app/content/ventures.ts (seed.server.ts).
 */
export const ventures = sqliteTable(
  "ventures",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    tagline: text("tagline").notNull(),
    description: text("description").notNull(),
    stage: text("stage", { enum: VENTURE_STAGES }).notNull(),
    /** A key of VENTURE_COLOURS (app/content/ventures.ts): the stylesheet has a class per key. */
    colour: text("colour").notNull(),
    /** A lucide icon name the site ships (VentureIconName). */
    icon: text("icon").notNull(),
    /** The logo's R2 key, `logos/<sha256>.<png|jpg|webp>`, with its pixel size; null: the icon. */
    logo: text("logo"),
    logoWidth: integer("logo_width"),
    logoHeight: integer("logo_height"),
    /** The venture's website, an https:// URL with a public host, or null. */
    website: text("website"),
    /** A YouTube video id (11 characters), or null. */
    video: text("video"),
    position: integer("position").notNull(),
    shown: integer("shown", { mode: "boolean" }).notNull().default(true),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("ventures_position_idx").on(t.position)],
);

export type VentureRow = typeof ventures.$inferSelect;

/**
 * Every change of a venture (migrations/0020): who, when, which fields, and the venture as the
 * change left it (`state`, JSON of its editable fields), so "Restore" can bring any back. The
 * seeded state is each venture's first revision.
 */
export const ventureRevisions = sqliteTable(
  "venture_revisions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ventureId: text("venture_id")
      .notNull()
      .references(() => ventures.id, { onDelete: "cascade" }),
    /** The admin's e-mail address, or "seed". */
    revisedBy: text("revised_by").notNull(),
    revisedAt: integer("revised_at").notNull(),
    /** The changed fields' names, comma-separated ("created" for the first revision). */
    changed: text("changed").notNull(),
    state: text("state").notNull(),
  },
  (t) => [index("venture_revisions_venture_id_idx").on(t.ventureId, t.id)],
);

/**
 * Key facts (migrations/0020): a venture's (or, with a null venture, the group's) figure with its
 * as-of date and its source, a `/documents/v/<sha256>.pdf` version path or an https:// URL.
 */
export const keyFacts = sqliteTable(
  "key_facts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ventureId: text("venture_id").references(() => ventures.id, { onDelete: "cascade" }),
    label: text("label").notNull(),
    value: text("value").notNull(),
    /** YYYY-MM-DD. */
    asOf: text("as_of").notNull(),
    source: text("source").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("key_facts_venture_id_idx").on(t.ventureId)],
);

export type KeyFact = typeof keyFacts.$inferSelect;

/**
 * The content's generation (migrations/0020, docs/decisions/090): one row, bumped in the batch of
 * every change a cached page shows (`contentChanged`); every cached page's key carries it.
 */
export const contentGeneration = sqliteTable("content_generation", {
  id: integer("id").primaryKey(),
  value: integer("value").notNull(),
});

/**
 * Investors (migrations/0023, docs/rooms.md): one person per address across every venture's rooms.
 * `email` is stored trimmed and lower-cased; `name` and `firm` as the admin last typed them.
 */
export const investors = sqliteTable(
  "investors",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    firm: text("firm").notNull().default(""),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("investors_email_unique").on(t.email)],
);

export type Investor = typeof investors.$inferSelect;

/**
 * Investor rooms (migrations/0023, docs/rooms.md): a venture's (null: the group's) confidential
 * documents shared with named investors. `nda` is Markdown (empty: none); `expiresAt` is the
 * instant the room stops answering (the end of its expiry day, UTC); a closed room never answers
 * again. `ownerEmail` is the admin who opened it, who hears of visits while `notifyOwner` holds.
 */
export const rooms = sqliteTable(
  "rooms",
  {
    id: text("id").primaryKey(),
    title: text("title").notNull(),
    venture: text("venture"),
    nda: text("nda").notNull().default(""),
    downloads: integer("downloads", { mode: "boolean" }).notNull().default(false),
    watermark: integer("watermark", { mode: "boolean" }).notNull().default(true),
    notifyOwner: integer("notify_owner", { mode: "boolean" }).notNull().default(true),
    expiresAt: integer("expires_at"),
    ownerEmail: text("owner_email").notNull(),
    closedAt: integer("closed_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("rooms_created_at_idx").on(t.createdAt)],
);

export type Room = typeof rooms.$inferSelect;

/** The library documents a room holds; each serves its document's current version. */
export const roomDocuments = sqliteTable(
  "room_documents",
  {
    roomId: text("room_id")
      .notNull()
      .references(() => rooms.id, { onDelete: "cascade" }),
    documentId: text("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    addedAt: integer("added_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.roomId, t.documentId] }), index("room_documents_document_id_idx").on(t.documentId)],
);

/**
 * An investor's invitation to a room: the personal link's token (its SHA-256), when they first
 * opened the room and were last seen, and when an admin revoked it (the room then answers them
 * as an unknown page does).
 */
export const roomInvitations = sqliteTable(
  "room_invitations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    roomId: text("room_id")
      .notNull()
      .references(() => rooms.id, { onDelete: "cascade" }),
    investorId: text("investor_id")
      .notNull()
      .references(() => investors.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    /** The admin's e-mail. */
    invitedBy: text("invited_by").notNull(),
    invitedAt: integer("invited_at").notNull(),
    revokedAt: integer("revoked_at"),
    firstOpenedAt: integer("first_opened_at"),
    lastSeenAt: integer("last_seen_at"),
  },
  (t) => [
    uniqueIndex("room_invitations_room_investor_unique").on(t.roomId, t.investorId),
    uniqueIndex("room_invitations_token_hash_unique").on(t.tokenHash),
    index("room_invitations_investor_id_idx").on(t.investorId),
  ],
);

export type RoomInvitation = typeof roomInvitations.$inferSelect;

/**
 * One-time sign-in codes (6 digits) mailed to an invitation's address: their HMAC, never the code;
 * valid 10 minutes, single use, void after five wrong tries; `sentAt` spaces requests 30 s apart.
 */
export const roomCodes = sqliteTable(
  "room_codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    invitationId: integer("invitation_id")
      .notNull()
      .references(() => roomInvitations.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    sentAt: integer("sent_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    usedAt: integer("used_at"),
  },
  (t) => [index("room_codes_invitation_id_idx").on(t.invitationId, t.sentAt)],
);

/** An investor's acceptance of a room's NDA: when, the name they typed, and the text as accepted. */
export const roomNdaAcceptances = sqliteTable(
  "room_nda_acceptances",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    invitationId: integer("invitation_id")
      .notNull()
      .references(() => roomInvitations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    ndaText: text("nda_text").notNull(),
    acceptedAt: integer("accepted_at").notNull(),
  },
  (t) => [index("room_nda_acceptances_invitation_id_idx").on(t.invitationId, t.acceptedAt)],
);

/**
 * An investor's visits to a room: requests within 30 minutes of the last are one visit, and the
 * owner hears of each visit once (`notified`).
 */
export const roomVisits = sqliteTable(
  "room_visits",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    invitationId: integer("invitation_id")
      .notNull()
      .references(() => roomInvitations.id, { onDelete: "cascade" }),
    startedAt: integer("started_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
    notified: integer("notified", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [index("room_visits_invitation_id_idx").on(t.invitationId, t.lastSeenAt)],
);

/** Each open and download of a room's document by an investor, with the version served. */
export const roomViews = sqliteTable(
  "room_views",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    invitationId: integer("invitation_id")
      .notNull()
      .references(() => roomInvitations.id, { onDelete: "cascade" }),
    documentId: text("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    versionId: integer("version_id")
      .notNull()
      .references(() => documentVersions.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ROOM_VIEW_KINDS }).notNull(),
    at: integer("at").notNull(),
  },
  (t) => [
    index("room_views_invitation_id_idx").on(t.invitationId, t.at),
    index("room_views_document_id_idx").on(t.documentId, t.versionId),
  ],
);

/**
 * Watermarked copies (docs/decisions/113): one R2 object per investor and document version, made
 * on the first open, stamped with the investor's address and the day it was made (`stampedOn`).
 */
export const roomCopies = sqliteTable(
  "room_copies",
  {
    investorId: text("investor_id")
      .notNull()
      .references(() => investors.id, { onDelete: "cascade" }),
    versionId: integer("version_id")
      .notNull()
      .references(() => documentVersions.id, { onDelete: "cascade" }),
    objectKey: text("object_key").notNull(),
    size: integer("size").notNull(),
    /** YYYY-MM-DD, the date printed on every page. */
    stampedOn: text("stamped_on").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.investorId, t.versionId] }),
    uniqueIndex("room_copies_object_key_unique").on(t.objectKey),
    index("room_copies_version_id_idx").on(t.versionId),
  ],
);

/**
 * An investor's choices in one room (migrations/0024, docs/decisions/116, 119): `analyticsAt` is
 * when they let the group record their page times (null: they did not, or took it back);
 * `updatesOffAt` when they stopped the "Updated:" mails of this room (null: they get them).
 */
export const roomPreferences = sqliteTable("room_preferences", {
  invitationId: integer("invitation_id")
    .primaryKey()
    .references(() => roomInvitations.id, { onDelete: "cascade" }),
  analyticsAt: integer("analytics_at"),
  updatesOffAt: integer("updates_off_at"),
  updatedAt: integer("updated_at").notNull(),
});

/** Every consent choice an investor made in a room (given or withdrawn), kept as their record of it. */
export const roomConsents = sqliteTable(
  "room_consents",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    invitationId: integer("invitation_id")
      .notNull()
      .references(() => roomInvitations.id, { onDelete: "cascade" }),
    analytics: integer("analytics", { mode: "boolean" }).notNull(),
    at: integer("at").notNull(),
  },
  (t) => [index("room_consents_invitation_id_idx").on(t.invitationId, t.at)],
);

/**
 * One reading of a document version in the room's viewer, by a consenting investor: its id is the
 * viewer's handle on it (random, sent with each report), `pageCount` bounds the pages a report may
 * name, `lastReportAt` the seconds the next may claim (docs/decisions/116).
 */
export const roomReadings = sqliteTable(
  "room_readings",
  {
    id: text("id").primaryKey(),
    invitationId: integer("invitation_id")
      .notNull()
      .references(() => roomInvitations.id, { onDelete: "cascade" }),
    documentId: text("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    versionId: integer("version_id")
      .notNull()
      .references(() => documentVersions.id, { onDelete: "cascade" }),
    pageCount: integer("page_count").notNull(),
    startedAt: integer("started_at").notNull(),
    lastReportAt: integer("last_report_at").notNull(),
  },
  (t) => [
    index("room_readings_invitation_id_idx").on(t.invitationId),
    index("room_readings_document_id_idx").on(t.documentId, t.versionId),
    index("room_readings_last_report_at_idx").on(t.lastReportAt),
  ],
);

/** The milliseconds a reading spent on each page, summed over its accepted reports. */
export const roomPageTimes = sqliteTable(
  "room_page_times",
  {
    readingId: text("reading_id")
      .notNull()
      .references(() => roomReadings.id, { onDelete: "cascade" }),
    page: integer("page").notNull(),
    ms: integer("ms").notNull(),
  },
  (t) => [primaryKey({ columns: [t.readingId, t.page] })],
);

/** A library version's number of pages, counted once (pdf-lib) the first time a room's viewer opens it. */
export const documentPageCounts = sqliteTable("document_page_counts", {
  versionId: integer("version_id")
    .primaryKey()
    .references(() => documentVersions.id, { onDelete: "cascade" }),
  pages: integer("pages").notNull(),
});

/** The "Updated: <title>" mails sent: one per room, investor and version, never twice (docs/decisions/119). */
export const roomUpdateMails = sqliteTable(
  "room_update_mails",
  {
    roomId: text("room_id")
      .notNull()
      .references(() => rooms.id, { onDelete: "cascade" }),
    investorId: text("investor_id")
      .notNull()
      .references(() => investors.id, { onDelete: "cascade" }),
    versionId: integer("version_id")
      .notNull()
      .references(() => documentVersions.id, { onDelete: "cascade" }),
    sentAt: integer("sent_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.roomId, t.investorId, t.versionId] })],
);

/**
 * An investor's question in a room, optionally about one of its documents, and the owner's answer;
 * with `faq` the answer joins the room's FAQ without who asked (docs/decisions/119).
 */
export const roomQuestions = sqliteTable(
  "room_questions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    roomId: text("room_id")
      .notNull()
      .references(() => rooms.id, { onDelete: "cascade" }),
    invitationId: integer("invitation_id")
      .notNull()
      .references(() => roomInvitations.id, { onDelete: "cascade" }),
    documentId: text("document_id").references(() => documents.id, { onDelete: "set null" }),
    question: text("question").notNull(),
    askedAt: integer("asked_at").notNull(),
    answer: text("answer"),
    answeredAt: integer("answered_at"),
    /** The admin's e-mail. */
    answeredBy: text("answered_by"),
    faq: integer("faq", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    index("room_questions_room_id_idx").on(t.roomId, t.askedAt),
    index("room_questions_invitation_id_idx").on(t.invitationId),
  ],
);

/**
 * The stage an admin set for an investor with a venture ("" for the group's own rooms) on
 * /admin/investors; without a row the stage follows from the rooms ("Invited", "Opened").
 */
export const investorStages = sqliteTable(
  "investor_stages",
  {
    investorId: text("investor_id")
      .notNull()
      .references(() => investors.id, { onDelete: "cascade" }),
    venture: text("venture").notNull(),
    stage: text("stage", { enum: SET_STAGES }).notNull(),
    /** The admin's e-mail. */
    setBy: text("set_by").notNull(),
    setAt: integer("set_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.investorId, t.venture] })],
);
