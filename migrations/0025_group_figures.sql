-- The group's figures as key facts an admin edits (docs/decisions/102): the investors page's
-- "Active Ventures" and the portfolio's "Industry Sectors", seeded once with the numbers the pages
-- showed from code, for a site whose catalogue was seeded before (a new catalogue gets them from
-- its seed, app/features/ventures/seed.server.ts); an admin's later change sticks.
INSERT INTO `key_facts` (`venture_id`, `label`, `value`, `as_of`, `source`, `created_at`)
	SELECT NULL, 'Active Ventures', '11', '2026-12-02', '/portfolio', 1796169600000
	WHERE EXISTS (SELECT 1 FROM `ventures`)
		AND NOT EXISTS (SELECT 1 FROM `key_facts` WHERE `venture_id` IS NULL AND `label` = 'Active Ventures');
INSERT INTO `key_facts` (`venture_id`, `label`, `value`, `as_of`, `source`, `created_at`)
	SELECT NULL, 'Industry Sectors', '8', '2026-12-02', '/portfolio', 1796169600000
	WHERE EXISTS (SELECT 1 FROM `ventures`)
		AND NOT EXISTS (SELECT 1 FROM `key_facts` WHERE `venture_id` IS NULL AND `label` = 'Industry Sectors');
