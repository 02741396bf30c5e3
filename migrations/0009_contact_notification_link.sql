-- Personal data (docs/decisions/019-personal-data.md): a contact notification is addressed to the
-- group, but its Reply-To, body and subject are the sender's. It names the Help message it is about,
-- so erasing or exporting the sender finds it (and the notification's link names the message by
-- this number, never by the sender's address).
ALTER TABLE `mail_outbox` ADD `contact_message_id` integer;
--> statement-breakpoint
CREATE INDEX `mail_outbox_contact_message_id_idx` ON `mail_outbox` (`contact_message_id`);
