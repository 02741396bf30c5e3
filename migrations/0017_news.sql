-- News the admins write, and the investor alerts they send (issue 45, docs/decisions/074, 075).
CREATE TABLE `news_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`slug` text NOT NULL,
	`title` text NOT NULL,
	`summary` text NOT NULL,
	`body` text NOT NULL,
	`venture` text,
	`status` text DEFAULT 'draft' NOT NULL,
	`alert` integer DEFAULT false NOT NULL,
	`published_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
CREATE UNIQUE INDEX `news_items_slug_unique` ON `news_items` (`slug`);
CREATE INDEX `news_items_status_published_at_idx` ON `news_items` (`status`, `published_at`, `id`);
CREATE INDEX `news_items_venture_status_published_at_idx` ON `news_items` (`venture`, `status`, `published_at`, `id`);
-- One alert per published item (news or document): its key is the item's, so publishing twice,
-- or unpublishing and publishing again, finds it and sends nothing more.
CREATE TABLE `alert_sends` (
	`kind` text NOT NULL,
	`item_id` text NOT NULL,
	`title` text NOT NULL,
	`summary` text NOT NULL,
	`url` text NOT NULL,
	`created_at` integer NOT NULL,
	`fanned_out_at` integer,
	PRIMARY KEY(`kind`, `item_id`)
);
CREATE INDEX `alert_sends_fanned_out_at_idx` ON `alert_sends` (`fanned_out_at`);
-- Who each alert was queued for: written in the batch that queues the mail (exactly once per lead).
CREATE TABLE `alert_recipients` (
	`kind` text NOT NULL,
	`item_id` text NOT NULL,
	`lead_id` integer NOT NULL,
	`mail_id` integer,
	PRIMARY KEY(`kind`, `item_id`, `lead_id`),
	FOREIGN KEY (`lead_id`) REFERENCES `leads`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE INDEX `alert_recipients_lead_id_idx` ON `alert_recipients` (`lead_id`);
