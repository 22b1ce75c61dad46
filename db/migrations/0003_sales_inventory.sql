CREATE TABLE `categories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`created_by_id` integer,
	`model` text NOT NULL,
	`name` text NOT NULL,
	`notes` text DEFAULT '' NOT NULL,
	`custom` text DEFAULT '{}' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `categories_model_name_unique` ON `categories` (`model`,"name" collate nocase);--> statement-breakpoint
CREATE TABLE `sub_categories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`created_by_id` integer,
	`category_id` integer NOT NULL,
	`model` text DEFAULT 'Sub Product Line' NOT NULL,
	`name` text NOT NULL,
	`notes` text DEFAULT '' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sub_categories_parent_name_unique` ON `sub_categories` (`category_id`,"name" collate nocase);--> statement-breakpoint
CREATE TABLE `taxes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`created_by_id` integer,
	`name` text DEFAULT '' NOT NULL,
	`state` text DEFAULT '' NOT NULL,
	`county` text DEFAULT '' NOT NULL,
	`city` text DEFAULT '' NOT NULL,
	`state_rate` real,
	`county_rate` real,
	`city_rate` real,
	`rate` real,
	`notes` text DEFAULT '' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `taxes_state_county_city_idx` ON `taxes` (`state`,`county`,`city`);--> statement-breakpoint
CREATE TABLE `inventory` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`item_id` integer NOT NULL,
	`business_unit_id` integer NOT NULL,
	`serial_number` text DEFAULT '' NOT NULL,
	`inventory_description` text DEFAULT '' NOT NULL,
	`category_id` integer,
	`status` text DEFAULT 'Available' NOT NULL,
	`quantity` integer DEFAULT 0 NOT NULL,
	`quantity_out` integer DEFAULT 0 NOT NULL,
	`quantity_out_location` integer DEFAULT 0 NOT NULL,
	`hidden` integer DEFAULT false NOT NULL,
	`purchase_date` text,
	`purchase_price` real,
	`manufacturer` text DEFAULT '' NOT NULL,
	`location` text DEFAULT '' NOT NULL,
	`minimum_rate` real,
	`additional_day` real,
	`custom` text DEFAULT '{}' NOT NULL,
	`updated_by_id` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`business_unit_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`updated_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "inventory_quantities_check" CHECK("inventory"."quantity" >= 0 and "inventory"."quantity_out" >= 0 and "inventory"."quantity_out_location" >= 0 and "inventory"."quantity" - "inventory"."quantity_out" - "inventory"."quantity_out_location" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `inventory_item_unit_serial_unique` ON `inventory` (`item_id`,`business_unit_id`,"serial_number" collate nocase);--> statement-breakpoint
CREATE INDEX `inventory_serial_idx` ON `inventory` ("serial_number" collate nocase);--> statement-breakpoint
CREATE INDEX `inventory_unit_idx` ON `inventory` (`business_unit_id`);--> statement-breakpoint
CREATE TABLE `inventory_audit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`action_time` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`action` text NOT NULL,
	`updated_by_id` integer,
	`updated_by_name` text DEFAULT '' NOT NULL,
	`inventory_id` integer,
	`serial_number` text DEFAULT '' NOT NULL,
	`item_number` text DEFAULT '' NOT NULL,
	`item_description` text DEFAULT '' NOT NULL,
	`status` text DEFAULT '' NOT NULL,
	`quantity` integer DEFAULT 0 NOT NULL,
	`quantity_change` integer DEFAULT 0 NOT NULL,
	`category` text DEFAULT '' NOT NULL,
	`business_unit` text DEFAULT '' NOT NULL,
	`locations` text DEFAULT '' NOT NULL,
	`calculated_inventory_status` text DEFAULT '' NOT NULL,
	`ticket_number` text DEFAULT '' NOT NULL,
	`invoice_number` text DEFAULT '' NOT NULL,
	`customer_name` text DEFAULT '' NOT NULL,
	`sales_rep_name` text DEFAULT '' NOT NULL,
	`start_date` text,
	FOREIGN KEY (`updated_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`inventory_id`) REFERENCES `inventory`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `inventory_audit_time_idx` ON `inventory_audit` (`action_time`);--> statement-breakpoint
CREATE INDEX `inventory_audit_inventory_idx` ON `inventory_audit` (`inventory_id`,`action_time`);--> statement-breakpoint
CREATE INDEX `inventory_audit_serial_idx` ON `inventory_audit` ("serial_number" collate nocase);--> statement-breakpoint
CREATE INDEX `inventory_audit_item_idx` ON `inventory_audit` ("item_number" collate nocase);--> statement-breakpoint
CREATE TABLE `inventory_locations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`inventory_id` integer NOT NULL,
	`name` text NOT NULL,
	`quantity` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`inventory_id`) REFERENCES `inventory`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "inventory_locations_quantity_check" CHECK("inventory_locations"."quantity" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `inventory_locations_unique` ON `inventory_locations` (`inventory_id`,`name`);--> statement-breakpoint
CREATE TABLE `items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`created_by_id` integer,
	`item_number` text NOT NULL,
	`item_description` text DEFAULT '' NOT NULL,
	`rate` real,
	`units` text DEFAULT '' NOT NULL,
	`inventory_type` text NOT NULL,
	`item_type` text DEFAULT '' NOT NULL,
	`is_taxable` integer DEFAULT false NOT NULL,
	`is_expendable` integer DEFAULT false NOT NULL,
	`is_service` integer DEFAULT false NOT NULL,
	`category_id` integer,
	`notes` text DEFAULT '' NOT NULL,
	`custom` text DEFAULT '{}' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `items_number_unique` ON `items` ("item_number" collate nocase);--> statement-breakpoint
CREATE INDEX `items_description_idx` ON `items` ("item_description" collate nocase);--> statement-breakpoint
CREATE TABLE `templates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`created_by_id` integer,
	`name` text NOT NULL,
	`business_unit_id` integer NOT NULL,
	`inventory_ids` text DEFAULT '[]' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`business_unit_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `templates_unit_idx` ON `templates` (`business_unit_id`);