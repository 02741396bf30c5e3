-- Personal data (docs/decisions/019-personal-data.md): an erased address leaves only a keyed
-- HMAC of itself here, so a later import, API client or signup cannot silently put it back on a
-- mailing list, while this table holds no address anyone can read.
CREATE TABLE `suppressed_emails` (
	`email_hash` text PRIMARY KEY NOT NULL,
	`reason` text NOT NULL,
	`created_at` integer NOT NULL
);
