CREATE TABLE `inventory_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sale_id` integer NOT NULL,
	`inventory_id` integer,
	`date` text NOT NULL,
	`quantity_in` integer DEFAULT 0 NOT NULL,
	`quantity_sold` integer DEFAULT 0 NOT NULL,
	`quantity_reclassed` integer DEFAULT 0 NOT NULL,
	`starting_quantity` integer DEFAULT 0 NOT NULL,
	`ending_quantity` integer DEFAULT 0 NOT NULL,
	`remove_quantity` integer DEFAULT false NOT NULL,
	`billed` integer DEFAULT false NOT NULL,
	`action` text NOT NULL,
	`user_id` integer,
	`user_name` text DEFAULT '' NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`sale_id`) REFERENCES `sales`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`inventory_id`) REFERENCES `inventory`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `inventory_log_sale_idx` ON `inventory_log` (`sale_id`);--> statement-breakpoint
CREATE TABLE `number_counters` (
	`name` text PRIMARY KEY NOT NULL,
	`value` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `rejections` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ticket_id` integer NOT NULL,
	`company_id` integer NOT NULL,
	`created_by_id` integer,
	`comment` text DEFAULT '' NOT NULL,
	`resolved` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `rejections_ticket_idx` ON `rejections` (`ticket_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `sales` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ticket_id` integer NOT NULL,
	`company_id` integer NOT NULL,
	`created_by_id` integer,
	`inventory_id` integer NOT NULL,
	`order` integer DEFAULT 0 NOT NULL,
	`start_date` text,
	`end_date` text,
	`duration` real DEFAULT 1 NOT NULL,
	`quantity` real DEFAULT 1 NOT NULL,
	`price` real DEFAULT 0 NOT NULL,
	`minimum_rate` real,
	`use_min_rate_logic` integer DEFAULT false NOT NULL,
	`discount` real,
	`markup` real,
	`state_tax` real,
	`county_tax` real,
	`city_tax` real,
	`is_sold` integer DEFAULT false NOT NULL,
	`hours` real,
	`notes` text DEFAULT '' NOT NULL,
	`doc` text,
	`file_id` integer,
	`quantity_held` integer DEFAULT 0 NOT NULL,
	`custom` text DEFAULT '{}' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`inventory_id`) REFERENCES `inventory`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `sales_ticket_order_idx` ON `sales` (`ticket_id`,`order`);--> statement-breakpoint
CREATE INDEX `sales_inventory_idx` ON `sales` (`inventory_id`);--> statement-breakpoint
CREATE INDEX `sales_start_idx` ON `sales` (`start_date`);--> statement-breakpoint
CREATE TABLE `tickets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`created_by_id` integer,
	`ticket_number` text NOT NULL,
	`invoice_number` text,
	`invoice_date` text,
	`ticket_date` text NOT NULL,
	`customer_id` integer NOT NULL,
	`sales_rep_id` integer,
	`tax_id` integer,
	`business_unit_id` integer,
	`product_line_id` integer,
	`sub_product_line_id` integer,
	`location` text DEFAULT '' NOT NULL,
	`notes` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'OPEN' NOT NULL,
	`is_invoice` integer DEFAULT false NOT NULL,
	`is_quote` integer DEFAULT false NOT NULL,
	`is_signed` integer DEFAULT false NOT NULL,
	`is_billed` integer DEFAULT false NOT NULL,
	`is_paid` integer DEFAULT false NOT NULL,
	`use_min_rate_logic` integer DEFAULT true NOT NULL,
	`final_bill` integer DEFAULT false NOT NULL,
	`custom` text DEFAULT '{}' NOT NULL,
	`template_id` integer,
	`clone` integer DEFAULT false NOT NULL,
	`is_transfer` integer DEFAULT false NOT NULL,
	`is_bill_back` integer DEFAULT false NOT NULL,
	`source_ticket_id` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`customer_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`sales_rep_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`tax_id`) REFERENCES `taxes`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`business_unit_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`product_line_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`sub_product_line_id`) REFERENCES `sub_categories`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`template_id`) REFERENCES `templates`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tickets_number_unique` ON `tickets` (`ticket_number`);--> statement-breakpoint
CREATE UNIQUE INDEX `tickets_invoice_number_unique` ON `tickets` (`invoice_number`);--> statement-breakpoint
CREATE INDEX `tickets_status_idx` ON `tickets` (`status`,`ticket_date`);--> statement-breakpoint
CREATE INDEX `tickets_customer_idx` ON `tickets` (`customer_id`);--> statement-breakpoint
CREATE INDEX `tickets_sales_rep_idx` ON `tickets` (`sales_rep_id`);