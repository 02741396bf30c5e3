-- Fixed-window counters for the signup rate limit (DESIGN.md "Leads": a per-client limit).
-- `key` is a keyed hash of the client address, never the address itself.
CREATE TABLE `rate_limits` (
	`key` text NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`key`, `window_start`)
);
--> statement-breakpoint
CREATE INDEX `rate_limits_window_idx` ON `rate_limits` (`window_start`);
