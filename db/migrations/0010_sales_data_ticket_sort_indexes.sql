CREATE INDEX `tickets_invoice_number_idx` ON `tickets` (`invoice_number`);--> statement-breakpoint
CREATE INDEX `tickets_invoice_date_idx` ON `tickets` (`invoice_date`);