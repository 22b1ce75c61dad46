CREATE TABLE `login_throttle` (
	`key` text PRIMARY KEY NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	`pending` integer DEFAULT 0 NOT NULL,
	`pending_until` integer DEFAULT 0 NOT NULL,
	`window_ends` integer NOT NULL,
	`locked_until` integer DEFAULT 0 NOT NULL,
	`lockouts` integer DEFAULT 0 NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `login_throttle_expiry_idx` ON `login_throttle` (`expires_at`);--> statement-breakpoint
CREATE TABLE `write_version` (
	`id` integer PRIMARY KEY NOT NULL,
	`version` integer NOT NULL
);
