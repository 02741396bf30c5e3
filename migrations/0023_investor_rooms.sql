-- Investor rooms (issue 58, docs/rooms.md, docs/decisions/112-115): investors (one per address),
-- rooms with the library documents they hold, invitations with their one-time codes, NDA
-- acceptances, visits, opens and downloads, and the watermarked copies kept in R2.
-- A library document may now be "rooms" only (documents.visibility: text, no constraint to change).
CREATE TABLE `investors` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`firm` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
CREATE UNIQUE INDEX `investors_email_unique` ON `investors` (`email`);
CREATE TABLE `rooms` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`venture` text,
	`nda` text DEFAULT '' NOT NULL,
	`downloads` integer DEFAULT false NOT NULL,
	`watermark` integer DEFAULT true NOT NULL,
	`notify_owner` integer DEFAULT true NOT NULL,
	`expires_at` integer,
	`owner_email` text NOT NULL,
	`closed_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
CREATE INDEX `rooms_created_at_idx` ON `rooms` (`created_at`);
CREATE TABLE `room_documents` (
	`room_id` text NOT NULL REFERENCES `rooms`(`id`) ON DELETE cascade,
	`document_id` text NOT NULL REFERENCES `documents`(`id`) ON DELETE cascade,
	`added_at` integer NOT NULL,
	PRIMARY KEY(`room_id`, `document_id`)
);
CREATE INDEX `room_documents_document_id_idx` ON `room_documents` (`document_id`);
CREATE TABLE `room_invitations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`room_id` text NOT NULL REFERENCES `rooms`(`id`) ON DELETE cascade,
	`investor_id` text NOT NULL REFERENCES `investors`(`id`) ON DELETE cascade,
	`token_hash` text NOT NULL,
	`invited_by` text NOT NULL,
	`invited_at` integer NOT NULL,
	`revoked_at` integer,
	`first_opened_at` integer,
	`last_seen_at` integer
);
CREATE UNIQUE INDEX `room_invitations_room_investor_unique` ON `room_invitations` (`room_id`, `investor_id`);
CREATE UNIQUE INDEX `room_invitations_token_hash_unique` ON `room_invitations` (`token_hash`);
CREATE INDEX `room_invitations_investor_id_idx` ON `room_invitations` (`investor_id`);
CREATE TABLE `room_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`invitation_id` integer NOT NULL REFERENCES `room_invitations`(`id`) ON DELETE cascade,
	`code_hash` text NOT NULL,
	`sent_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`used_at` integer
);
CREATE INDEX `room_codes_invitation_id_idx` ON `room_codes` (`invitation_id`, `sent_at`);
CREATE TABLE `room_nda_acceptances` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`invitation_id` integer NOT NULL REFERENCES `room_invitations`(`id`) ON DELETE cascade,
	`name` text NOT NULL,
	`nda_text` text NOT NULL,
	`accepted_at` integer NOT NULL
);
CREATE INDEX `room_nda_acceptances_invitation_id_idx` ON `room_nda_acceptances` (`invitation_id`, `accepted_at`);
CREATE TABLE `room_visits` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`invitation_id` integer NOT NULL REFERENCES `room_invitations`(`id`) ON DELETE cascade,
	`started_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`notified` integer DEFAULT false NOT NULL
);
CREATE INDEX `room_visits_invitation_id_idx` ON `room_visits` (`invitation_id`, `last_seen_at`);
CREATE TABLE `room_views` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`invitation_id` integer NOT NULL REFERENCES `room_invitations`(`id`) ON DELETE cascade,
	`document_id` text NOT NULL REFERENCES `documents`(`id`) ON DELETE cascade,
	`version_id` integer NOT NULL REFERENCES `document_versions`(`id`) ON DELETE cascade,
	`kind` text NOT NULL,
	`at` integer NOT NULL
);
CREATE INDEX `room_views_invitation_id_idx` ON `room_views` (`invitation_id`, `at`);
CREATE INDEX `room_views_document_id_idx` ON `room_views` (`document_id`, `version_id`);
CREATE TABLE `room_copies` (
	`investor_id` text NOT NULL REFERENCES `investors`(`id`) ON DELETE cascade,
	`version_id` integer NOT NULL REFERENCES `document_versions`(`id`) ON DELETE cascade,
	`object_key` text NOT NULL,
	`size` integer NOT NULL,
	`stamped_on` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`investor_id`, `version_id`)
);
CREATE UNIQUE INDEX `room_copies_object_key_unique` ON `room_copies` (`object_key`);
CREATE INDEX `room_copies_version_id_idx` ON `room_copies` (`version_id`);
