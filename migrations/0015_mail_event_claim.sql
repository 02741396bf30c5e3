-- Mail events act only once (issue 43, docs/decisions/015-mail-delivery.md): the handling that
-- inserts an event writes a fresh random claim with it, and its effects in the same batch run only
-- where the row carries that claim. A redelivered event inserts nothing, so it acts on nothing.
ALTER TABLE `mail_events` ADD `claim` text;
