-- The mail's own keys (issue 25, docs/decisions/019-personal-data.md): a suppression entry names
-- the MAIL_SECRET key it was made under (a public 8-character id), so a retired key's entries can
-- be counted before it is removed. NULL: made before issue 25, under the raw secret.
ALTER TABLE `suppressed_emails` ADD `key_id` text;
