-- Custom SQL migration file, put your code below! --
-- Contains-searches on serial numbers and batches: an FTS5 trigram index over the two columns, kept in
-- step with inspections by triggers (an external-content table: the text is stored once, in inspections).
CREATE VIRTUAL TABLE `inspections_fts` USING fts5(serial_number, batch, content='inspections', content_rowid='id', tokenize='trigram');
--> statement-breakpoint
CREATE TRIGGER `inspections_fts_ai` AFTER INSERT ON `inspections` BEGIN
  INSERT INTO `inspections_fts`(rowid, serial_number, batch) VALUES (new.id, new.serial_number, new.batch);
END;
--> statement-breakpoint
CREATE TRIGGER `inspections_fts_ad` AFTER DELETE ON `inspections` BEGIN
  INSERT INTO `inspections_fts`(`inspections_fts`, rowid, serial_number, batch) VALUES ('delete', old.id, old.serial_number, old.batch);
END;
--> statement-breakpoint
CREATE TRIGGER `inspections_fts_au` AFTER UPDATE OF serial_number, batch ON `inspections` BEGIN
  INSERT INTO `inspections_fts`(`inspections_fts`, rowid, serial_number, batch) VALUES ('delete', old.id, old.serial_number, old.batch);
  INSERT INTO `inspections_fts`(rowid, serial_number, batch) VALUES (new.id, new.serial_number, new.batch);
END;
--> statement-breakpoint
INSERT INTO `inspections_fts`(`inspections_fts`) VALUES ('rebuild');
