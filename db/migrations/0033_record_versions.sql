-- Record versions (decision 038): every record a form edits carries `version`, its ETag. A trigger per
-- table bumps it when a column a form or an edit call writes really changes, whatever the path (a form, a
-- status change, a rejection, a check-in moving a line's dates). Columns that holds, check-ins and counting
-- triggers move on their own (quantity_out, quantity_held, flags copied from the ticket, order, file ids)
-- are not listed: they never make an edit form's save stale.
ALTER TABLE `tickets` ADD `version` integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE `sales` ADD `version` integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE `items` ADD `version` integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE `inventory` ADD `version` integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE `templates` ADD `version` integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE `taxes` ADD `version` integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE `categories` ADD `version` integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE `sub_categories` ADD `version` integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE `jobs` ADD `version` integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE `inspections` ADD `version` integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE `parts` ADD `version` integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE `companies` ADD `version` integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE `users` ADD `version` integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
CREATE TRIGGER `tickets_version_au` AFTER UPDATE OF `customer_id`, `sales_rep_id`, `tax_id`, `business_unit_id`, `product_line_id`, `sub_product_line_id`, `location`, `notes`, `ticket_date`, `invoice_date`, `status`, `is_signed`, `is_billed`, `is_paid`, `use_min_rate_logic`, `final_bill`, `custom` ON `tickets`
WHEN old.`version` = new.`version` AND (
    old.`customer_id` IS NOT new.`customer_id`
    OR old.`sales_rep_id` IS NOT new.`sales_rep_id`
    OR old.`tax_id` IS NOT new.`tax_id`
    OR old.`business_unit_id` IS NOT new.`business_unit_id`
    OR old.`product_line_id` IS NOT new.`product_line_id`
    OR old.`sub_product_line_id` IS NOT new.`sub_product_line_id`
    OR old.`location` IS NOT new.`location`
    OR old.`notes` IS NOT new.`notes`
    OR old.`ticket_date` IS NOT new.`ticket_date`
    OR old.`invoice_date` IS NOT new.`invoice_date`
    OR old.`status` IS NOT new.`status`
    OR old.`is_signed` IS NOT new.`is_signed`
    OR old.`is_billed` IS NOT new.`is_billed`
    OR old.`is_paid` IS NOT new.`is_paid`
    OR old.`use_min_rate_logic` IS NOT new.`use_min_rate_logic`
    OR old.`final_bill` IS NOT new.`final_bill`
    OR old.`custom` IS NOT new.`custom`
  )
BEGIN
  UPDATE `tickets` SET `version` = `version` + 1 WHERE `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `sales_version_au` AFTER UPDATE OF `inventory_id`, `start_date`, `end_date`, `duration`, `quantity`, `price`, `minimum_rate`, `use_min_rate_logic`, `discount`, `markup`, `state_tax`, `county_tax`, `city_tax`, `notes`, `custom` ON `sales`
WHEN old.`version` = new.`version` AND (
    old.`inventory_id` IS NOT new.`inventory_id`
    OR old.`start_date` IS NOT new.`start_date`
    OR old.`end_date` IS NOT new.`end_date`
    OR old.`duration` IS NOT new.`duration`
    OR old.`quantity` IS NOT new.`quantity`
    OR old.`price` IS NOT new.`price`
    OR old.`minimum_rate` IS NOT new.`minimum_rate`
    OR old.`use_min_rate_logic` IS NOT new.`use_min_rate_logic`
    OR old.`discount` IS NOT new.`discount`
    OR old.`markup` IS NOT new.`markup`
    OR old.`state_tax` IS NOT new.`state_tax`
    OR old.`county_tax` IS NOT new.`county_tax`
    OR old.`city_tax` IS NOT new.`city_tax`
    OR old.`notes` IS NOT new.`notes`
    OR old.`custom` IS NOT new.`custom`
  )
BEGIN
  UPDATE `sales` SET `version` = `version` + 1 WHERE `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `items_version_au` AFTER UPDATE OF `item_number`, `item_description`, `rate`, `units`, `inventory_type`, `item_type`, `is_taxable`, `is_expendable`, `is_service`, `category_id`, `notes`, `custom` ON `items`
WHEN old.`version` = new.`version` AND (
    old.`item_number` IS NOT new.`item_number`
    OR old.`item_description` IS NOT new.`item_description`
    OR old.`rate` IS NOT new.`rate`
    OR old.`units` IS NOT new.`units`
    OR old.`inventory_type` IS NOT new.`inventory_type`
    OR old.`item_type` IS NOT new.`item_type`
    OR old.`is_taxable` IS NOT new.`is_taxable`
    OR old.`is_expendable` IS NOT new.`is_expendable`
    OR old.`is_service` IS NOT new.`is_service`
    OR old.`category_id` IS NOT new.`category_id`
    OR old.`notes` IS NOT new.`notes`
    OR old.`custom` IS NOT new.`custom`
  )
BEGIN
  UPDATE `items` SET `version` = `version` + 1 WHERE `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `inventory_version_au` AFTER UPDATE OF `item_id`, `business_unit_id`, `serial_number`, `inventory_description`, `category_id`, `status`, `hidden`, `quantity`, `purchase_date`, `purchase_price`, `manufacturer`, `location`, `minimum_rate`, `additional_day`, `custom` ON `inventory`
WHEN old.`version` = new.`version` AND (
    old.`item_id` IS NOT new.`item_id`
    OR old.`business_unit_id` IS NOT new.`business_unit_id`
    OR old.`serial_number` IS NOT new.`serial_number`
    OR old.`inventory_description` IS NOT new.`inventory_description`
    OR old.`category_id` IS NOT new.`category_id`
    OR old.`status` IS NOT new.`status`
    OR old.`hidden` IS NOT new.`hidden`
    OR old.`quantity` IS NOT new.`quantity`
    OR old.`purchase_date` IS NOT new.`purchase_date`
    OR old.`purchase_price` IS NOT new.`purchase_price`
    OR old.`manufacturer` IS NOT new.`manufacturer`
    OR old.`location` IS NOT new.`location`
    OR old.`minimum_rate` IS NOT new.`minimum_rate`
    OR old.`additional_day` IS NOT new.`additional_day`
    OR old.`custom` IS NOT new.`custom`
  )
BEGIN
  UPDATE `inventory` SET `version` = `version` + 1 WHERE `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `templates_version_au` AFTER UPDATE OF `name`, `business_unit_id`, `inventory_ids` ON `templates`
WHEN old.`version` = new.`version` AND (
    old.`name` IS NOT new.`name`
    OR old.`business_unit_id` IS NOT new.`business_unit_id`
    OR old.`inventory_ids` IS NOT new.`inventory_ids`
  )
BEGIN
  UPDATE `templates` SET `version` = `version` + 1 WHERE `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `taxes_version_au` AFTER UPDATE OF `name`, `state`, `county`, `city`, `state_rate`, `county_rate`, `city_rate`, `rate`, `notes` ON `taxes`
WHEN old.`version` = new.`version` AND (
    old.`name` IS NOT new.`name`
    OR old.`state` IS NOT new.`state`
    OR old.`county` IS NOT new.`county`
    OR old.`city` IS NOT new.`city`
    OR old.`state_rate` IS NOT new.`state_rate`
    OR old.`county_rate` IS NOT new.`county_rate`
    OR old.`city_rate` IS NOT new.`city_rate`
    OR old.`rate` IS NOT new.`rate`
    OR old.`notes` IS NOT new.`notes`
  )
BEGIN
  UPDATE `taxes` SET `version` = `version` + 1 WHERE `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `categories_version_au` AFTER UPDATE OF `model`, `name`, `notes`, `custom` ON `categories`
WHEN old.`version` = new.`version` AND (
    old.`model` IS NOT new.`model`
    OR old.`name` IS NOT new.`name`
    OR old.`notes` IS NOT new.`notes`
    OR old.`custom` IS NOT new.`custom`
  )
BEGIN
  UPDATE `categories` SET `version` = `version` + 1 WHERE `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `sub_categories_version_au` AFTER UPDATE OF `category_id`, `model`, `name`, `notes` ON `sub_categories`
WHEN old.`version` = new.`version` AND (
    old.`category_id` IS NOT new.`category_id`
    OR old.`model` IS NOT new.`model`
    OR old.`name` IS NOT new.`name`
    OR old.`notes` IS NOT new.`notes`
  )
BEGIN
  UPDATE `sub_categories` SET `version` = `version` + 1 WHERE `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `jobs_version_au` AFTER UPDATE OF `date`, `job_number`, `inspection_company_id`, `customer_company_id`, `operator_company_id`, `district`, `inspector`, `uv_serial_number`, `uv_recalibration_date`, `blacklight_reading`, `ut_serial_number`, `ut_recalibration_date`, `comments`, `custom` ON `jobs`
WHEN old.`version` = new.`version` AND (
    old.`date` IS NOT new.`date`
    OR old.`job_number` IS NOT new.`job_number`
    OR old.`inspection_company_id` IS NOT new.`inspection_company_id`
    OR old.`customer_company_id` IS NOT new.`customer_company_id`
    OR old.`operator_company_id` IS NOT new.`operator_company_id`
    OR old.`district` IS NOT new.`district`
    OR old.`inspector` IS NOT new.`inspector`
    OR old.`uv_serial_number` IS NOT new.`uv_serial_number`
    OR old.`uv_recalibration_date` IS NOT new.`uv_recalibration_date`
    OR old.`blacklight_reading` IS NOT new.`blacklight_reading`
    OR old.`ut_serial_number` IS NOT new.`ut_serial_number`
    OR old.`ut_recalibration_date` IS NOT new.`ut_recalibration_date`
    OR old.`comments` IS NOT new.`comments`
    OR old.`custom` IS NOT new.`custom`
  )
BEGIN
  UPDATE `jobs` SET `version` = `version` + 1 WHERE `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `inspections_version_au` AFTER UPDATE OF `job_id`, `date`, `serial_number`, `batch`, `part_id`, `visual_pass`, `ut_1`, `ut_2`, `ut_3`, `pressure`, `band_color`, `mpi_result`, `notes`, `pressure_test_file_id`, `custom` ON `inspections`
WHEN old.`version` = new.`version` AND (
    old.`job_id` IS NOT new.`job_id`
    OR old.`date` IS NOT new.`date`
    OR old.`serial_number` IS NOT new.`serial_number`
    OR old.`batch` IS NOT new.`batch`
    OR old.`part_id` IS NOT new.`part_id`
    OR old.`visual_pass` IS NOT new.`visual_pass`
    OR old.`ut_1` IS NOT new.`ut_1`
    OR old.`ut_2` IS NOT new.`ut_2`
    OR old.`ut_3` IS NOT new.`ut_3`
    OR old.`pressure` IS NOT new.`pressure`
    OR old.`band_color` IS NOT new.`band_color`
    OR old.`mpi_result` IS NOT new.`mpi_result`
    OR old.`notes` IS NOT new.`notes`
    OR old.`pressure_test_file_id` IS NOT new.`pressure_test_file_id`
    OR old.`custom` IS NOT new.`custom`
  )
BEGIN
  UPDATE `inspections` SET `version` = `version` + 1 WHERE `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `parts_version_au` AFTER UPDATE OF `name`, `description`, `manufacturer`, `custom` ON `parts`
WHEN old.`version` = new.`version` AND (
    old.`name` IS NOT new.`name`
    OR old.`description` IS NOT new.`description`
    OR old.`manufacturer` IS NOT new.`manufacturer`
    OR old.`custom` IS NOT new.`custom`
  )
BEGIN
  UPDATE `parts` SET `version` = `version` + 1 WHERE `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `companies_version_au` AFTER UPDATE OF `name`, `company_type`, `is_owner`, `tax_id`, `custom`, `settings` ON `companies`
WHEN old.`version` = new.`version` AND (
    old.`name` IS NOT new.`name`
    OR old.`company_type` IS NOT new.`company_type`
    OR old.`is_owner` IS NOT new.`is_owner`
    OR old.`tax_id` IS NOT new.`tax_id`
    OR old.`custom` IS NOT new.`custom`
    OR old.`settings` IS NOT new.`settings`
  )
BEGIN
  UPDATE `companies` SET `version` = `version` + 1 WHERE `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `users_version_au` AFTER UPDATE OF `name`, `email`, `phone`, `active`, `is_sales_rep`, `account_type`, `company_id`, `permissions`, `categories`, `categories_bu`, `jobs` ON `users`
WHEN old.`version` = new.`version` AND (
    old.`name` IS NOT new.`name`
    OR old.`email` IS NOT new.`email`
    OR old.`phone` IS NOT new.`phone`
    OR old.`active` IS NOT new.`active`
    OR old.`is_sales_rep` IS NOT new.`is_sales_rep`
    OR old.`account_type` IS NOT new.`account_type`
    OR old.`company_id` IS NOT new.`company_id`
    OR old.`permissions` IS NOT new.`permissions`
    OR old.`categories` IS NOT new.`categories`
    OR old.`categories_bu` IS NOT new.`categories_bu`
    OR old.`jobs` IS NOT new.`jobs`
  )
BEGIN
  UPDATE `users` SET `version` = `version` + 1 WHERE `id` = new.`id`;
END;
