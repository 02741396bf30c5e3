-- Fixed-window counters for the per-client signup rate limit.
-- `key` is a keyed hash of the client address, never the address itself.
CREATE TABLE `rate_limits` (
	`key` text NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`key`, `window_start`)
);
--> statement-breakpoint
CREATE INDEX `rate_limits_window_idx` ON `rate_limits` (`window_start`);
--> statement-breakpoint
-- Signups per UTC day and source, kept by triggers, so the dashboard's figures read a few hundred
-- rows instead of counting every lead (the stats are computed in SQL on indexes).
CREATE TABLE `lead_daily_counts` (
	`day` integer NOT NULL,
	`source` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`day`, `source`)
);
--> statement-breakpoint
INSERT INTO `lead_daily_counts` (`day`, `source`, `count`)
SELECT CAST(`subscribed_at` / 86400000 AS INTEGER), `source`, COUNT(*) FROM `leads` GROUP BY 1, 2;
--> statement-breakpoint
CREATE TRIGGER `leads_count_insert` AFTER INSERT ON `leads`
BEGIN
	INSERT INTO `lead_daily_counts` (`day`, `source`, `count`)
	VALUES (CAST(NEW.`subscribed_at` / 86400000 AS INTEGER), NEW.`source`, 1)
	ON CONFLICT (`day`, `source`) DO UPDATE SET `count` = `count` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `leads_count_delete` AFTER DELETE ON `leads`
BEGIN
	UPDATE `lead_daily_counts` SET `count` = `count` - 1
	WHERE `day` = CAST(OLD.`subscribed_at` / 86400000 AS INTEGER) AND `source` = OLD.`source`;
END;
--> statement-breakpoint
CREATE TRIGGER `leads_count_update` AFTER UPDATE OF `subscribed_at`, `source` ON `leads`
BEGIN
	UPDATE `lead_daily_counts` SET `count` = `count` - 1
	WHERE `day` = CAST(OLD.`subscribed_at` / 86400000 AS INTEGER) AND `source` = OLD.`source`;
	INSERT INTO `lead_daily_counts` (`day`, `source`, `count`)
	VALUES (CAST(NEW.`subscribed_at` / 86400000 AS INTEGER), NEW.`source`, 1)
	ON CONFLICT (`day`, `source`) DO UPDATE SET `count` = `count` + 1;
END;
