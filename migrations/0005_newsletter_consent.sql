-- Double opt-in (docs/decisions/016-newsletter-double-opt-in.md): a lead is pending until its
-- owner confirms from the e-mail, confirmed, or unsubscribed; the consent record sits on the lead.
-- Leads stored before this migration signed up when no confirmation existed: they stay on the
-- list as confirmed, recorded with the method 'before-double-opt-in' and no confirmation time.
ALTER TABLE `leads` ADD `status` text DEFAULT 'pending' NOT NULL;
--> statement-breakpoint
ALTER TABLE `leads` ADD `consent_method` text DEFAULT 'double-opt-in' NOT NULL;
--> statement-breakpoint
ALTER TABLE `leads` ADD `consent_version` text;
--> statement-breakpoint
ALTER TABLE `leads` ADD `confirmed_at` integer;
--> statement-breakpoint
ALTER TABLE `leads` ADD `unsubscribed_at` integer;
--> statement-breakpoint
UPDATE `leads` SET `status` = 'confirmed', `consent_method` = 'before-double-opt-in';
--> statement-breakpoint
-- Lists and exports per status, newest first, keyset-paged.
CREATE INDEX `leads_status_subscribed_at_idx` ON `leads` (`status`, `subscribed_at`, `id`);
--> statement-breakpoint
-- Confirmation links: only the SHA-256 of the token is kept; a token dies with its use, its lead,
-- or after 7 days (checked on use, swept by the scheduled job).
CREATE TABLE `newsletter_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`lead_id` integer NOT NULL REFERENCES `leads`(`id`) ON DELETE CASCADE,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `newsletter_tokens_lead_id_idx` ON `newsletter_tokens` (`lead_id`, `created_at`);
--> statement-breakpoint
CREATE INDEX `newsletter_tokens_created_at_idx` ON `newsletter_tokens` (`created_at`);
--> statement-breakpoint
-- The daily counts gain the status, so each status's totals stay a read of a few hundred rows.
DROP TRIGGER `leads_count_insert`;
--> statement-breakpoint
DROP TRIGGER `leads_count_delete`;
--> statement-breakpoint
DROP TRIGGER `leads_count_update`;
--> statement-breakpoint
DROP TABLE `lead_daily_counts`;
--> statement-breakpoint
CREATE TABLE `lead_daily_counts` (
	`day` integer NOT NULL,
	`source` text NOT NULL,
	`status` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`day`, `source`, `status`)
);
--> statement-breakpoint
INSERT INTO `lead_daily_counts` (`day`, `source`, `status`, `count`)
SELECT CAST(`subscribed_at` / 86400000 AS INTEGER), `source`, `status`, COUNT(*) FROM `leads` GROUP BY 1, 2, 3;
--> statement-breakpoint
CREATE TRIGGER `leads_count_insert` AFTER INSERT ON `leads`
BEGIN
	INSERT INTO `lead_daily_counts` (`day`, `source`, `status`, `count`)
	VALUES (CAST(NEW.`subscribed_at` / 86400000 AS INTEGER), NEW.`source`, NEW.`status`, 1)
	ON CONFLICT (`day`, `source`, `status`) DO UPDATE SET `count` = `count` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `leads_count_delete` AFTER DELETE ON `leads`
BEGIN
	UPDATE `lead_daily_counts` SET `count` = `count` - 1
	WHERE `day` = CAST(OLD.`subscribed_at` / 86400000 AS INTEGER) AND `source` = OLD.`source` AND `status` = OLD.`status`;
END;
--> statement-breakpoint
CREATE TRIGGER `leads_count_update` AFTER UPDATE OF `subscribed_at`, `source`, `status` ON `leads`
BEGIN
	UPDATE `lead_daily_counts` SET `count` = `count` - 1
	WHERE `day` = CAST(OLD.`subscribed_at` / 86400000 AS INTEGER) AND `source` = OLD.`source` AND `status` = OLD.`status`;
	INSERT INTO `lead_daily_counts` (`day`, `source`, `status`, `count`)
	VALUES (CAST(NEW.`subscribed_at` / 86400000 AS INTEGER), NEW.`source`, NEW.`status`, 1)
	ON CONFLICT (`day`, `source`, `status`) DO UPDATE SET `count` = `count` + 1;
END;
