-- The group's calendar (issue 51, docs/decisions/095, 096, 097): events with their RFC 5545 UID
-- and SEQUENCE, and an alerts subscriber's own consent to event reminders.
CREATE TABLE `events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`uid` text NOT NULL,
	`slug` text NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`venture` text,
	`timezone` text NOT NULL,
	`all_day` integer DEFAULT false NOT NULL,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	`start_date` text,
	`end_date` text,
	`location` text NOT NULL,
	`url` text,
	`status` text DEFAULT 'scheduled' NOT NULL,
	`published` integer DEFAULT false NOT NULL,
	`alert` integer DEFAULT false NOT NULL,
	`sequence` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
CREATE UNIQUE INDEX `events_slug_unique` ON `events` (`slug`);
CREATE UNIQUE INDEX `events_uid_unique` ON `events` (`uid`);
CREATE INDEX `events_published_starts_at_idx` ON `events` (`published`, `starts_at`, `id`);
CREATE INDEX `events_venture_published_starts_at_idx` ON `events` (`venture`, `published`, `starts_at`, `id`);
ALTER TABLE `leads` ADD `event_reminders` integer DEFAULT false NOT NULL;
