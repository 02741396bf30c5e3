-- The document library's versions (issue 53, docs/decisions/072-document-urls.md): when the
-- stable URL's current version became current (its Last-Modified, so restoring an older version
-- never moves it backwards), when a published document was withdrawn (the admin reads "Withdrawn",
-- not "Draft"), and a version an admin withdrew (its own URL then answers as an unknown path).
ALTER TABLE `documents` ADD `current_since` integer;
UPDATE `documents` SET `current_since` = (
	SELECT `uploaded_at` FROM `document_versions` WHERE `document_versions`.`id` = `documents`.`current_version_id`
);
ALTER TABLE `documents` ADD `withdrawn_at` integer;
ALTER TABLE `document_versions` ADD `withdrawn_at` integer;
