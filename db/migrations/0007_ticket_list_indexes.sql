DROP INDEX `tickets_status_idx`;--> statement-breakpoint
CREATE INDEX `tickets_company_status_idx` ON `tickets` (`company_id`,`status`);--> statement-breakpoint
CREATE INDEX `tickets_company_status_number_idx` ON `tickets` (`company_id`,`status`,`ticket_number`);--> statement-breakpoint
CREATE INDEX `tickets_company_status_invoice_idx` ON `tickets` (`company_id`,`status`,`invoice_number`);--> statement-breakpoint
CREATE INDEX `tickets_company_status_date_idx` ON `tickets` (`company_id`,`status`,`ticket_date`);--> statement-breakpoint
CREATE INDEX `tickets_company_status_invoice_date_idx` ON `tickets` (`company_id`,`status`,`invoice_date`);--> statement-breakpoint
CREATE INDEX `tickets_company_status_created_idx` ON `tickets` (`company_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `tickets_company_status_customer_idx` ON `tickets` (`company_id`,`status`,`customer_id`);--> statement-breakpoint
CREATE INDEX `tickets_company_status_rep_idx` ON `tickets` (`company_id`,`status`,`sales_rep_id`);--> statement-breakpoint
CREATE INDEX `tickets_company_id_status_idx` ON `tickets` (`company_id`,`id`,`status`);