-- The leads workbench (docs/decisions/017-leads-workbench.md): every filter is an index range at
-- 100 000 leads, and each admin action on a lead leaves an audit entry.
DROP INDEX `leads_source_idx`;
--> statement-breakpoint
-- A source in every status, newest first (the order comes from the index: no sort of its rows).
CREATE INDEX `leads_source_subscribed_at_idx` ON `leads` (`source`, `subscribed_at`, `id`);
--> statement-breakpoint
-- A source, optionally with a status and a date range, newest first.
CREATE INDEX `leads_source_status_subscribed_at_idx` ON `leads` (`source`, `status`, `subscribed_at`, `id`);
--> statement-breakpoint
-- Name prefixes, case-insensitive (e-mails are stored in lower case: the unique index serves them).
CREATE INDEX `leads_first_name_lower_idx` ON `leads` (lower(`first_name`));
--> statement-breakpoint
CREATE INDEX `leads_last_name_lower_idx` ON `leads` (lower(`last_name`));
--> statement-breakpoint
-- Who did what to which record, and when. `target` names the record without its personal data
-- (a lead's id and masked address), so an erasure leaves nothing readable behind here.
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`target` text NOT NULL,
	`detail` text
);
--> statement-breakpoint
CREATE INDEX `audit_log_at_idx` ON `audit_log` (`at`);
