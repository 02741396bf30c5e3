-- Mail delivery events (issue 34, docs/decisions/015-mail-delivery.md).
-- The id the transport gave a sent message (the Email Service's messageId, or SMTP's Message-ID):
-- what a bounce, complaint or rejection names, so it finds its outbox row.
ALTER TABLE `mail_outbox` ADD `message_id` text;
CREATE INDEX `mail_outbox_message_id_idx` ON `mail_outbox` (`message_id`);
-- One row per delivery event received (its id, so a redelivered event counts once): the kind and
-- when, never the address. The dashboard counts the last 30 days; older rows are pruned.
CREATE TABLE `mail_events` (
	`event_id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`at` integer NOT NULL
);
CREATE INDEX `mail_events_at_idx` ON `mail_events` (`at`, `kind`);
-- leads.status gains 'undeliverable' (a hard bounce): a text column, no change to its definition.
