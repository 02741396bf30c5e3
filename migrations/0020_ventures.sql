-- The portfolio in D1 (issue 50, docs/ventures.md): the ventures, their revisions, key facts, and
-- the content generation every cached page's key carries (docs/decisions/090). The nine starting
-- ventures are seeded by app/features/ventures/seed.server.ts (npm start, the suites, and once in
-- production with `npm run ventures:seed -- --env production`), not here: one source for them.
CREATE TABLE `ventures` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`tagline` text NOT NULL,
	`description` text NOT NULL,
	`stage` text NOT NULL,
	`colour` text NOT NULL,
	`icon` text NOT NULL,
	`logo` text,
	`logo_width` integer,
	`logo_height` integer,
	`website` text,
	`video` text,
	`position` integer NOT NULL,
	`shown` integer DEFAULT true NOT NULL,
	`updated_at` integer NOT NULL
);
CREATE INDEX `ventures_position_idx` ON `ventures` (`position`);
CREATE TABLE `venture_revisions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`venture_id` text NOT NULL,
	`revised_by` text NOT NULL,
	`revised_at` integer NOT NULL,
	`changed` text NOT NULL,
	`state` text NOT NULL,
	FOREIGN KEY (`venture_id`) REFERENCES `ventures`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE INDEX `venture_revisions_venture_id_idx` ON `venture_revisions` (`venture_id`, `id`);
CREATE TABLE `key_facts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`venture_id` text,
	`label` text NOT NULL,
	`value` text NOT NULL,
	`as_of` text NOT NULL,
	`source` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`venture_id`) REFERENCES `ventures`(`id`) ON UPDATE no action ON DELETE cascade
);
CREATE INDEX `key_facts_venture_id_idx` ON `key_facts` (`venture_id`);
CREATE TABLE `content_generation` (
	`id` integer PRIMARY KEY NOT NULL,
	`value` integer NOT NULL
);
