DROP INDEX `tickets_company_rep_idx`;--> statement-breakpoint
DROP INDEX `tickets_company_customer_idx`;--> statement-breakpoint
CREATE INDEX `tickets_company_rep_id_status_idx` ON `tickets` (`company_id`,`sales_rep_id`,`id`,`status`);--> statement-breakpoint
CREATE INDEX `tickets_company_customer_id_status_idx` ON `tickets` (`company_id`,`customer_id`,`id`,`status`);--> statement-breakpoint
CREATE INDEX `tickets_company_number_id_status_idx` ON `tickets` (`company_id`,`ticket_number`,`id`,`status`);--> statement-breakpoint
CREATE INDEX `tickets_company_invoice_id_status_idx` ON `tickets` (`company_id`,`invoice_number`,`id`,`status`);--> statement-breakpoint
CREATE INDEX `tickets_company_date_id_status_idx` ON `tickets` (`company_id`,`ticket_date`,`id`,`status`);--> statement-breakpoint
CREATE INDEX `tickets_company_invoice_date_id_status_idx` ON `tickets` (`company_id`,`invoice_date`,`id`,`status`);--> statement-breakpoint
CREATE INDEX `tickets_company_created_id_status_idx` ON `tickets` (`company_id`,`created_at`,`id`,`status`);