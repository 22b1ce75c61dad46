CREATE TABLE `revoked_sessions` (
	`sid` text PRIMARY KEY NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `revoked_sessions_expiry_idx` ON `revoked_sessions` (`expires_at`);