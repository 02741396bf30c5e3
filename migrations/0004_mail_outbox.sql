-- The mail outbox (docs/decisions/015-mail-delivery.md): every e-mail the site sends is first a
-- row here, written in the same batch as what it is about, then delivered by the worker right
-- after the response and by the every-minute Cron Trigger, with retries until a day has passed.
-- Times are ms since the epoch. The body is blanked once the message is sent or given up.
CREATE TABLE `mail_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`recipient` text NOT NULL,
	`subject` text NOT NULL,
	`text_body` text NOT NULL,
	`html_body` text NOT NULL,
	`headers` text DEFAULT '{}' NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text,
	`created_at` integer NOT NULL,
	`sent_at` integer
);
--> statement-breakpoint
-- What is due (status = 'queued' AND next_attempt_at <= now), the counts per status, the pruning.
CREATE INDEX `mail_outbox_status_due_idx` ON `mail_outbox` (`status`, `next_attempt_at`);
--> statement-breakpoint
-- The newest failed deliveries for the dashboard.
CREATE INDEX `mail_outbox_created_at_idx` ON `mail_outbox` (`created_at`);
