-- Leads gain a topic (issue 45, docs/decisions/005, 016, 075): the newsletter, as every lead so
-- far, or the investor alerts. An address has one lead per topic, each with its own consent.
ALTER TABLE `leads` ADD `topic` text DEFAULT 'newsletter' NOT NULL;
DROP INDEX `leads_email_unique`;
CREATE UNIQUE INDEX `leads_email_topic_unique` ON `leads` (`email`, `topic`);
-- lead_daily_counts (the dashboard's totals) count the newsletter's leads alone, as before.
DROP TRIGGER `leads_count_insert`;
DROP TRIGGER `leads_count_delete`;
DROP TRIGGER `leads_count_update`;
CREATE TRIGGER `leads_count_insert` AFTER INSERT ON `leads` WHEN NEW.`topic` = 'newsletter'
BEGIN
	INSERT INTO `lead_daily_counts` (`day`, `source`, `status`, `count`)
	VALUES (CAST(NEW.`subscribed_at` / 86400000 AS INTEGER), NEW.`source`, NEW.`status`, 1)
	ON CONFLICT (`day`, `source`, `status`) DO UPDATE SET `count` = `count` + 1;
END;
CREATE TRIGGER `leads_count_delete` AFTER DELETE ON `leads` WHEN OLD.`topic` = 'newsletter'
BEGIN
	UPDATE `lead_daily_counts` SET `count` = `count` - 1
	WHERE `day` = CAST(OLD.`subscribed_at` / 86400000 AS INTEGER) AND `source` = OLD.`source` AND `status` = OLD.`status`;
END;
CREATE TRIGGER `leads_count_update` AFTER UPDATE OF `subscribed_at`, `source`, `status` ON `leads` WHEN NEW.`topic` = 'newsletter'
BEGIN
	UPDATE `lead_daily_counts` SET `count` = `count` - 1
	WHERE `day` = CAST(OLD.`subscribed_at` / 86400000 AS INTEGER) AND `source` = OLD.`source` AND `status` = OLD.`status`;
	INSERT INTO `lead_daily_counts` (`day`, `source`, `status`, `count`)
	VALUES (CAST(NEW.`subscribed_at` / 86400000 AS INTEGER), NEW.`source`, NEW.`status`, 1)
	ON CONFLICT (`day`, `source`, `status`) DO UPDATE SET `count` = `count` + 1;
END;
