-- How many confirmation e-mails each address has been sent (docs/decisions/016-newsletter-double-opt-in.md):
-- at most 3 in its lifetime unless its owner confirms, so a stranger's signups cannot make the group
-- mail anyone without end. Keyed by a keyed hash of the folded address (like suppressed_emails), so
-- it outlives the pending lead, which is deleted after 30 days, without keeping the address.
CREATE TABLE `confirmation_counts` (
	`address_hash` text PRIMARY KEY NOT NULL,
	`sent` integer NOT NULL,
	`updated_at` integer NOT NULL
);
