-- The group's figures as key facts an admin edits (docs/decisions/102): the investors page's
-- "Active Ventures" and the portfolio's "Industry Sectors", seeded once with the numbers the pages
-- showed from code, so that a new site reads as before and an admin's later change sticks.
INSERT INTO `key_facts` (`venture_id`, `label`, `value`, `as_of`, `source`, `created_at`) VALUES
	(NULL, 'Active Ventures', '11', '2026-12-02', '/portfolio', 1796169600000),
	(NULL, 'Industry Sectors', '8', '2026-12-02', '/portfolio', 1796169600000);
