CREATE TABLE `files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sha256` text NOT NULL,
	`name` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`data` blob NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `files_sha256_unique` ON `files` (`sha256`);--> statement-breakpoint
CREATE TABLE `parts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`manufacturer` text DEFAULT '' NOT NULL,
	`inspection_company_id` integer NOT NULL,
	`user_id` integer,
	`custom` text DEFAULT '{}' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	FOREIGN KEY (`inspection_company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `parts_company_name_idx` ON `parts` (`inspection_company_id`,"name" collate nocase);--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`date` text NOT NULL,
	`job_number` text NOT NULL,
	`inspection_company_id` integer NOT NULL,
	`customer_company_id` integer NOT NULL,
	`operator_company_id` integer NOT NULL,
	`district` text NOT NULL,
	`inspector` text NOT NULL,
	`uv_serial_number` text NOT NULL,
	`uv_recalibration_date` text NOT NULL,
	`blacklight_reading` text NOT NULL,
	`ut_serial_number` text NOT NULL,
	`ut_recalibration_date` text NOT NULL,
	`comments` text NOT NULL,
	`custom` text DEFAULT '{}' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	FOREIGN KEY (`inspection_company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`operator_company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `jobs_inspection_company_date_idx` ON `jobs` (`inspection_company_id`,`date`,`id`);--> statement-breakpoint
CREATE INDEX `jobs_customer_date_idx` ON `jobs` (`customer_company_id`,`date`,`id`);--> statement-breakpoint
CREATE INDEX `jobs_operator_date_idx` ON `jobs` (`operator_company_id`,`date`,`id`);--> statement-breakpoint
CREATE INDEX `jobs_number_idx` ON `jobs` ("job_number" collate nocase);--> statement-breakpoint
CREATE TABLE `inspections` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`job_id` integer NOT NULL,
	`inspection_company_id` integer NOT NULL,
	`customer_company_id` integer NOT NULL,
	`operator_company_id` integer NOT NULL,
	`date` text NOT NULL,
	`serial_number` text DEFAULT '' NOT NULL,
	`batch` text DEFAULT '' NOT NULL,
	`part_id` integer,
	`visual_pass` integer,
	`ut_1` real,
	`ut_2` real,
	`ut_3` real,
	`pressure` real,
	`band_color` text,
	`mpi_result` text,
	`notes` text DEFAULT '' NOT NULL,
	`pressure_test_file_id` integer,
	`custom` text DEFAULT '{}' NOT NULL,
	`inspection_time` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`inspection_company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`operator_company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`part_id`) REFERENCES `parts`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`pressure_test_file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `inspections_job_time_idx` ON `inspections` (`job_id`,`inspection_time`);--> statement-breakpoint
CREATE INDEX `inspections_inspection_company_time_idx` ON `inspections` (`inspection_company_id`,`inspection_time`);--> statement-breakpoint
CREATE INDEX `inspections_customer_time_idx` ON `inspections` (`customer_company_id`,`inspection_time`);--> statement-breakpoint
CREATE INDEX `inspections_operator_time_idx` ON `inspections` (`operator_company_id`,`inspection_time`);--> statement-breakpoint
CREATE INDEX `inspections_job_serial_idx` ON `inspections` (`job_id`,"serial_number" collate nocase);--> statement-breakpoint
CREATE INDEX `inspections_serial_idx` ON `inspections` ("serial_number" collate nocase);--> statement-breakpoint
CREATE INDEX `inspections_batch_idx` ON `inspections` ("batch" collate nocase);--> statement-breakpoint
CREATE INDEX `inspections_part_idx` ON `inspections` (`part_id`);--> statement-breakpoint
CREATE INDEX `inspections_file_idx` ON `inspections` (`pressure_test_file_id`);