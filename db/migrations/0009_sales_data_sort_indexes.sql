CREATE INDEX `sales_end_idx` ON `sales` (`end_date`);--> statement-breakpoint
CREATE INDEX `sales_quantity_idx` ON `sales` (`quantity`);--> statement-breakpoint
CREATE INDEX `sales_minimum_rate_idx` ON `sales` (`minimum_rate`);--> statement-breakpoint
CREATE INDEX `sales_price_idx` ON `sales` (`price`);--> statement-breakpoint
CREATE INDEX `sales_discount_idx` ON `sales` (`discount`);--> statement-breakpoint
CREATE INDEX `sales_duration_idx` ON `sales` (`duration`);