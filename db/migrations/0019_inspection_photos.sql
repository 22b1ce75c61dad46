CREATE TABLE `inspection_photos` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`inspection_id` integer NOT NULL,
	`file_id` integer NOT NULL,
	`position` integer NOT NULL,
	`caption` text DEFAULT '' NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	FOREIGN KEY (`inspection_id`) REFERENCES `inspections`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `inspection_photos_inspection_idx` ON `inspection_photos` (`inspection_id`,`position`);--> statement-breakpoint
CREATE INDEX `inspection_photos_file_idx` ON `inspection_photos` (`file_id`);--> statement-breakpoint
CREATE TABLE `inspection_signatures` (
	`inspection_id` integer PRIMARY KEY NOT NULL,
	`file_id` integer NOT NULL,
	`signer_name` text NOT NULL,
	`signed_by` integer,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`signed_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	FOREIGN KEY (`inspection_id`) REFERENCES `inspections`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`signed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `inspection_signatures_file_idx` ON `inspection_signatures` (`file_id`);