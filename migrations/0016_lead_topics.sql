-- Leads gain a topic (issue 45, docs/decisions/005, 016, 075): the newsletter, as every lead so
-- far, or the investor alerts. An address has one lead per topic, each with its own consent.
ALTER TABLE `leads` ADD `topic` text DEFAULT 'newsletter' NOT NULL;
DROP INDEX `leads_email_unique`;
CREATE UNIQUE INDEX `leads_email_topic_unique` ON `leads` (`email`, `topic`);
