-- Suppression that holds for every spelling (issue 33, docs/decisions/060-mail-once-folds-and-key-roles.md):
-- when an address is erased or says "this wasn't me", the list's other entries of the same folded
-- mailbox (jane+afx@gmail.com for jane@gmail.com) are marked here, so the leads CSV and the person
-- export leave them out; the mail's own check at sending covers the outbox. NULL: not suppressed.
ALTER TABLE `leads` ADD `suppressed_at` integer;
