CREATE TABLE `issued_documents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ticket_id` integer NOT NULL,
	`number` text NOT NULL,
	`revision` integer NOT NULL,
	`document_date` text NOT NULL,
	`issued_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')) NOT NULL,
	`issued_by` text DEFAULT '' NOT NULL,
	`origin` text DEFAULT 'issued' NOT NULL,
	`cancelled_at` text,
	`cancelled_by` text,
	`rounding` text NOT NULL,
	`subtotal` real NOT NULL,
	`markup` real NOT NULL,
	`discount` real NOT NULL,
	`state_tax` real NOT NULL,
	`county_tax` real NOT NULL,
	`city_tax` real NOT NULL,
	`grandtotal` real NOT NULL,
	`document` text NOT NULL,
	`pdf` blob,
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `issued_documents_ticket_revision_unique` ON `issued_documents` (`ticket_id`,`revision`);--> statement-breakpoint
CREATE UNIQUE INDEX `issued_documents_current_unique` ON `issued_documents` (`ticket_id`) WHERE cancelled_at is null;--> statement-breakpoint
CREATE TABLE `issued_lines` (
	`document_id` integer NOT NULL,
	`sale_id` integer NOT NULL,
	`line` text NOT NULL,
	FOREIGN KEY (`document_id`) REFERENCES `issued_documents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `issued_lines_sale_document_unique` ON `issued_lines` (`sale_id`,`document_id`);--> statement-breakpoint
CREATE INDEX `issued_lines_document_idx` ON `issued_lines` (`document_id`);--> statement-breakpoint
CREATE TABLE `issued_assets` (
	`sha256` text PRIMARY KEY NOT NULL,
	`data` blob NOT NULL
);
--> statement-breakpoint
ALTER TABLE `tickets` ADD `rounding` text DEFAULT 'line' NOT NULL;--> statement-breakpoint
-- Invoices issued before this release are frozen with the rounding rule in force when they were issued
-- (decision 040): a database that had not yet run migration 0007 when this upgrade began was last served by a
-- release before decision 015, so its invoices were computed by decision 007's rule. migrateTenant leaves the
-- table `rounding_before_015` for such a database before migrating (db/client.ts); it is read and dropped here,
-- in the same transaction as the rest of the migration.
UPDATE `tickets` SET `rounding` = 'exact'
  WHERE `is_invoice` = 1 AND EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'rounding_before_015');
--> statement-breakpoint
DROP TABLE IF EXISTS `rounding_before_015`;
--> statement-breakpoint
-- Approved invoices without an issued revision are frozen (names, figures) by the server on the tenant's first
-- open after this migration, in short batches (api/sales/issued/freeze.ts); the row goes when none is left.
CREATE TABLE `issue_freeze_pending` (`id` integer PRIMARY KEY NOT NULL);
--> statement-breakpoint
INSERT INTO `issue_freeze_pending` (`id`) SELECT 1 WHERE EXISTS (SELECT 1 FROM `tickets` WHERE `is_invoice` = 1);
