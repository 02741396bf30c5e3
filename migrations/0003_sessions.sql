-- Server-side sessions (docs/decisions/004-sign-in.md "Sessions"): the session cookie carries a
-- random token; D1 keeps only its SHA-256, so a copy of the database signs nobody in. A row's
-- absence (logout, "sign out everywhere", a deleted member) or age ends the session.
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL REFERENCES `users`(`id`) ON DELETE CASCADE,
	`created_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sessions_user_id_idx` ON `sessions` (`user_id`);
--> statement-breakpoint
CREATE INDEX `sessions_last_seen_at_idx` ON `sessions` (`last_seen_at`);
--> statement-breakpoint
-- The provider's word that the member owns their e-mail, kept so the admin role and anything
-- acting on the e-mail (the newsletter switch) can be decided on every request.
ALTER TABLE `users` ADD `email_verified` integer DEFAULT false NOT NULL;
