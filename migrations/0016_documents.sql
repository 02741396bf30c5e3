-- The document library (issue 44, docs/decisions/070): the catalogue in D1, the files in R2.
CREATE TABLE `documents` (
	`id` text PRIMARY KEY NOT NULL,
	`path` text NOT NULL,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`category` text NOT NULL,
	`venture_id` text,
	`visibility` text DEFAULT 'public' NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`current_version_id` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
CREATE UNIQUE INDEX `documents_path_unique` ON `documents` (`path`);
CREATE INDEX `documents_status_category_idx` ON `documents` (`status`, `category`);
-- Every uploaded file: its R2 object, size, SHA-256 (the version's URL and ETag) and uploader.
CREATE TABLE `document_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`document_id` text NOT NULL REFERENCES `documents`(`id`) ON DELETE cascade,
	`object_key` text NOT NULL,
	`size` integer NOT NULL,
	`sha256` text NOT NULL,
	`file_name` text NOT NULL,
	`uploaded_by` text NOT NULL,
	`uploaded_at` integer NOT NULL
);
CREATE UNIQUE INDEX `document_versions_object_key_unique` ON `document_versions` (`object_key`);
CREATE INDEX `document_versions_document_id_idx` ON `document_versions` (`document_id`, `uploaded_at`);
CREATE INDEX `document_versions_sha256_idx` ON `document_versions` (`sha256`);
-- Downloads per document per UTC day, counted after each response (waitUntil).
CREATE TABLE `document_downloads` (
	`document_id` text NOT NULL REFERENCES `documents`(`id`) ON DELETE cascade,
	`day` integer NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`document_id`, `day`)
);
