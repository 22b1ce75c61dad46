CREATE INDEX `inspections_company_date_idx` ON `inspections` (`inspection_company_id`,`date`);--> statement-breakpoint
CREATE INDEX `inspections_company_serial_idx` ON `inspections` (`inspection_company_id`,"serial_number" collate nocase);--> statement-breakpoint
CREATE INDEX `inspections_company_batch_idx` ON `inspections` (`inspection_company_id`,"batch" collate nocase);--> statement-breakpoint
CREATE INDEX `inspections_company_band_idx` ON `inspections` (`inspection_company_id`,`band_color`);--> statement-breakpoint
CREATE INDEX `inspections_company_mpi_idx` ON `inspections` (`inspection_company_id`,`mpi_result`);