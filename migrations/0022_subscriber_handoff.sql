-- The newsletter host's hand-off and investors' alert preferences (issue 52, docs/decisions/098, 099).
-- When a newsletter lead was first handed to the host (an export of scope "new" leaves it out after).
ALTER TABLE `leads` ADD `handed_off_at` integer;
-- An alerts lead's choice: JSON arrays of venture ids and of kinds; NULL means all (the default).
ALTER TABLE `leads` ADD `alert_ventures` text;
ALTER TABLE `leads` ADD `alert_kinds` text;
-- The venture an alert's item belongs to (NULL: the group), which the preferences filter on.
ALTER TABLE `alert_sends` ADD `venture` text;
-- Each export to the host: when, who, which host's columns, which scope, how many addresses.
CREATE TABLE `subscriber_handoffs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`actor` text NOT NULL,
	`format` text NOT NULL,
	`scope` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL
);
CREATE INDEX `subscriber_handoffs_at_idx` ON `subscriber_handoffs` (`at`, `id`);
-- Which leads each export held (its consent records); an erased lead's rows go with it.
CREATE TABLE `handoff_leads` (
	`handoff_id` integer NOT NULL,
	`lead_id` integer NOT NULL,
	PRIMARY KEY(`handoff_id`, `lead_id`),
	FOREIGN KEY (`handoff_id`) REFERENCES `subscriber_handoffs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`lead_id`) REFERENCES `leads`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE INDEX `handoff_leads_lead_id_idx` ON `handoff_leads` (`lead_id`);
-- The hand-off's "not yet handed off" and the scope "new": confirmed newsletter leads by hand-off.
CREATE INDEX `leads_topic_status_handed_off_at_idx` ON `leads` (`topic`, `status`, `handed_off_at`);
