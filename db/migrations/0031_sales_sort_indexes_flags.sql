-- Sales Data's sorts on the line's own columns (end, quantity, minimum rate, price, discount, duration) walk
-- these indexes in order and check the ticket's flags (migration 0021) on each line: from the index alone now
-- (the id after the column keeps the order's tie-break in the index), where each line walked was read from the
-- table: a page 10,000 lines in took 15-45 ms on the large sales tenant.
DROP INDEX `sales_end_idx`;--> statement-breakpoint
DROP INDEX `sales_quantity_idx`;--> statement-breakpoint
DROP INDEX `sales_minimum_rate_idx`;--> statement-breakpoint
DROP INDEX `sales_price_idx`;--> statement-breakpoint
DROP INDEX `sales_discount_idx`;--> statement-breakpoint
DROP INDEX `sales_duration_idx`;--> statement-breakpoint
CREATE INDEX `sales_end_idx` ON `sales` (`end_date`,`id`,"ticket_invoice","ticket_quote");--> statement-breakpoint
CREATE INDEX `sales_quantity_idx` ON `sales` (`quantity`,`id`,"ticket_invoice","ticket_quote");--> statement-breakpoint
CREATE INDEX `sales_minimum_rate_idx` ON `sales` (`minimum_rate`,`id`,"ticket_invoice","ticket_quote");--> statement-breakpoint
CREATE INDEX `sales_price_idx` ON `sales` (`price`,`id`,"ticket_invoice","ticket_quote");--> statement-breakpoint
CREATE INDEX `sales_discount_idx` ON `sales` (`discount`,`id`,"ticket_invoice","ticket_quote");--> statement-breakpoint
CREATE INDEX `sales_duration_idx` ON `sales` (`duration`,`id`,"ticket_invoice","ticket_quote");