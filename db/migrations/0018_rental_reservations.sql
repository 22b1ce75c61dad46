ALTER TABLE `sales` ADD `quantity_pending` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `sales_reservation_idx` ON `sales` (`inventory_id`,`start_date`,`end_date`) WHERE quantity_held + quantity_pending > 0;--> statement-breakpoint
CREATE INDEX `sales_pending_start_idx` ON `sales` (`start_date`) WHERE quantity_pending > 0;