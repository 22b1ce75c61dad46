CREATE INDEX `parts_name_idx` ON `parts` ("name" collate nocase);--> statement-breakpoint
CREATE INDEX `jobs_company_district_idx` ON `jobs` (`inspection_company_id`,"district" collate nocase);--> statement-breakpoint
CREATE INDEX `tickets_company_rep_idx` ON `tickets` (`company_id`,`sales_rep_id`);