-- The contact inbox (docs/decisions/018-contact-inbox.md): each Help-form message is open until an
-- admin marks it answered (who and when are kept); the admin list is newest first, keyset-paged,
-- per status, and searchable by the sender's e-mail or name prefix as index ranges.
ALTER TABLE `contact_messages` ADD `status` text DEFAULT 'open' NOT NULL;
--> statement-breakpoint
ALTER TABLE `contact_messages` ADD `answered_at` integer;
--> statement-breakpoint
-- The answering admin's e-mail address as it was then (an admin may later lose the role).
ALTER TABLE `contact_messages` ADD `answered_by` text;
--> statement-breakpoint
-- Newest first with (created_at, id) as the keyset, for all messages and per status.
DROP INDEX `contact_messages_created_at_idx`;
--> statement-breakpoint
CREATE INDEX `contact_messages_created_at_idx` ON `contact_messages` (`created_at`, `id`);
--> statement-breakpoint
CREATE INDEX `contact_messages_status_created_at_idx` ON `contact_messages` (`status`, `created_at`, `id`);
--> statement-breakpoint
-- Case-insensitive prefix search on the sender (ASCII case, as SQLite's NOCASE folds it).
CREATE INDEX `contact_messages_email_nocase_idx` ON `contact_messages` (`email` COLLATE NOCASE);
--> statement-breakpoint
CREATE INDEX `contact_messages_name_nocase_idx` ON `contact_messages` (`name` COLLATE NOCASE);
--> statement-breakpoint
-- A message in the outbox may name where answers go (the contact notification: the visitor).
ALTER TABLE `mail_outbox` ADD `reply_to` text;
