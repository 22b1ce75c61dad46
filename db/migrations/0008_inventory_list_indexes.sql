DROP INDEX `inventory_unit_idx`;--> statement-breakpoint
CREATE INDEX `inventory_item_serial_idx` ON `inventory` (`item_id`,`hidden`,"serial_number" collate nocase);--> statement-breakpoint
CREATE INDEX `inventory_unit_serial_idx` ON `inventory` (`business_unit_id`,`hidden`,"serial_number" collate nocase,`item_id`);--> statement-breakpoint
CREATE INDEX `inventory_hidden_serial_idx` ON `inventory` (`hidden`,"serial_number" collate nocase,`item_id`);--> statement-breakpoint
CREATE INDEX `inventory_hidden_quantity_idx` ON `inventory` (`hidden`,`quantity`,`item_id`);--> statement-breakpoint
CREATE INDEX `inventory_hidden_available_idx` ON `inventory` (`hidden`,("quantity" - "quantity_out" - "quantity_out_location"),`item_id`);--> statement-breakpoint
CREATE INDEX `inventory_hidden_updated_idx` ON `inventory` (`hidden`,`updated_at`,`item_id`);--> statement-breakpoint
-- Contains-searches on inventory serial numbers (the list) and descriptions (the pickers): an FTS5 trigram
-- index, kept in step with inventory by triggers (an external-content table, as inspections_fts in 0002:
-- the text is stored once, in inventory).
CREATE VIRTUAL TABLE `inventory_fts` USING fts5(serial_number, inventory_description, content='inventory', content_rowid='id', tokenize='trigram');
--> statement-breakpoint
CREATE TRIGGER `inventory_fts_ai` AFTER INSERT ON `inventory` BEGIN
  INSERT INTO `inventory_fts`(rowid, serial_number, inventory_description) VALUES (new.id, new.serial_number, new.inventory_description);
END;
--> statement-breakpoint
CREATE TRIGGER `inventory_fts_ad` AFTER DELETE ON `inventory` BEGIN
  INSERT INTO `inventory_fts`(`inventory_fts`, rowid, serial_number, inventory_description) VALUES ('delete', old.id, old.serial_number, old.inventory_description);
END;
--> statement-breakpoint
CREATE TRIGGER `inventory_fts_au` AFTER UPDATE OF serial_number, inventory_description ON `inventory` BEGIN
  INSERT INTO `inventory_fts`(`inventory_fts`, rowid, serial_number, inventory_description) VALUES ('delete', old.id, old.serial_number, old.inventory_description);
  INSERT INTO `inventory_fts`(rowid, serial_number, inventory_description) VALUES (new.id, new.serial_number, new.inventory_description);
END;
--> statement-breakpoint
INSERT INTO `inventory_fts`(`inventory_fts`) VALUES ('rebuild');
--> statement-breakpoint
-- The audit log's other sorts, each read from an index in its order (the column, then id).
CREATE INDEX `inventory_audit_action_idx` ON `inventory_audit` ("action" collate nocase);--> statement-breakpoint
CREATE INDEX `inventory_audit_updated_by_idx` ON `inventory_audit` ("updated_by_name" collate nocase);--> statement-breakpoint
CREATE INDEX `inventory_audit_status_idx` ON `inventory_audit` (`status`);--> statement-breakpoint
CREATE INDEX `inventory_audit_quantity_idx` ON `inventory_audit` (`quantity`);--> statement-breakpoint
CREATE INDEX `inventory_audit_unit_idx` ON `inventory_audit` ("business_unit" collate nocase);
