CREATE INDEX `categories_name_idx` ON `categories` ("name" collate nocase);--> statement-breakpoint
CREATE INDEX `sub_categories_name_idx` ON `sub_categories` ("name" collate nocase);--> statement-breakpoint
CREATE INDEX `tickets_business_unit_idx` ON `tickets` (`business_unit_id`);--> statement-breakpoint
CREATE INDEX `tickets_product_line_idx` ON `tickets` (`product_line_id`);--> statement-breakpoint
CREATE INDEX `tickets_sub_product_line_idx` ON `tickets` (`sub_product_line_id`);--> statement-breakpoint
CREATE INDEX `tickets_invoice_ticket_number_idx` ON `tickets` (`is_invoice`,`ticket_number`);--> statement-breakpoint
CREATE INDEX `tickets_invoice_invoice_number_idx` ON `tickets` (`is_invoice`,`invoice_number`);--> statement-breakpoint
CREATE INDEX `tickets_invoice_invoice_date_idx` ON `tickets` (`is_invoice`,`invoice_date`);