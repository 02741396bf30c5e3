-- What investors read, with their consent (issue 59, docs/decisions/116-119): each investor's
-- choices in a room and their consent record, page times of consenting readers, the library
-- versions' page counts, the "Updated:" mails sent, questions and answers, and pipeline stages.
CREATE TABLE `room_preferences` (
	`invitation_id` integer PRIMARY KEY NOT NULL REFERENCES `room_invitations`(`id`) ON DELETE cascade,
	`analytics_at` integer,
	`updates_off_at` integer,
	`updated_at` integer NOT NULL
);
CREATE TABLE `room_consents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`invitation_id` integer NOT NULL REFERENCES `room_invitations`(`id`) ON DELETE cascade,
	`analytics` integer NOT NULL,
	`at` integer NOT NULL
);
CREATE INDEX `room_consents_invitation_id_idx` ON `room_consents` (`invitation_id`, `at`);
CREATE TABLE `room_readings` (
	`id` text PRIMARY KEY NOT NULL,
	`invitation_id` integer NOT NULL REFERENCES `room_invitations`(`id`) ON DELETE cascade,
	`document_id` text NOT NULL REFERENCES `documents`(`id`) ON DELETE cascade,
	`version_id` integer NOT NULL REFERENCES `document_versions`(`id`) ON DELETE cascade,
	`page_count` integer NOT NULL,
	`started_at` integer NOT NULL,
	`last_report_at` integer NOT NULL
);
CREATE INDEX `room_readings_invitation_id_idx` ON `room_readings` (`invitation_id`);
CREATE INDEX `room_readings_document_id_idx` ON `room_readings` (`document_id`, `version_id`);
CREATE INDEX `room_readings_last_report_at_idx` ON `room_readings` (`last_report_at`);
CREATE TABLE `room_page_times` (
	`reading_id` text NOT NULL REFERENCES `room_readings`(`id`) ON DELETE cascade,
	`page` integer NOT NULL,
	`ms` integer NOT NULL,
	PRIMARY KEY(`reading_id`, `page`)
);
CREATE TABLE `document_page_counts` (
	`version_id` integer PRIMARY KEY NOT NULL REFERENCES `document_versions`(`id`) ON DELETE cascade,
	`pages` integer NOT NULL
);
CREATE TABLE `room_update_mails` (
	`room_id` text NOT NULL REFERENCES `rooms`(`id`) ON DELETE cascade,
	`investor_id` text NOT NULL REFERENCES `investors`(`id`) ON DELETE cascade,
	`version_id` integer NOT NULL REFERENCES `document_versions`(`id`) ON DELETE cascade,
	`sent_at` integer NOT NULL,
	PRIMARY KEY(`room_id`, `investor_id`, `version_id`)
);
CREATE TABLE `room_questions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`room_id` text NOT NULL REFERENCES `rooms`(`id`) ON DELETE cascade,
	`invitation_id` integer NOT NULL REFERENCES `room_invitations`(`id`) ON DELETE cascade,
	`document_id` text REFERENCES `documents`(`id`) ON DELETE set null,
	`question` text NOT NULL,
	`asked_at` integer NOT NULL,
	`answer` text,
	`answered_at` integer,
	`answered_by` text,
	`faq` integer DEFAULT false NOT NULL
);
CREATE INDEX `room_questions_room_id_idx` ON `room_questions` (`room_id`, `asked_at`);
CREATE INDEX `room_questions_invitation_id_idx` ON `room_questions` (`invitation_id`);
CREATE TABLE `investor_stages` (
	`investor_id` text NOT NULL REFERENCES `investors`(`id`) ON DELETE cascade,
	`venture` text NOT NULL,
	`stage` text NOT NULL,
	`set_by` text NOT NULL,
	`set_at` integer NOT NULL,
	PRIMARY KEY(`investor_id`, `venture`)
);
