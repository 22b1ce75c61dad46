-- Custom SQL migration file, put your code below! --
-- Contains-searches on ticket and invoice numbers (the ticket lists) and job numbers (the jobs list):
-- FTS5 trigram indexes kept in step by triggers, external-content tables as inspections_fts (0002) and
-- inventory_fts (0008): the text is stored once, in its table. Existing rows are indexed by 'rebuild'.
CREATE VIRTUAL TABLE `tickets_fts` USING fts5(ticket_number, invoice_number, content='tickets', content_rowid='id', tokenize='trigram');
--> statement-breakpoint
CREATE TRIGGER `tickets_fts_ai` AFTER INSERT ON `tickets` BEGIN
  INSERT INTO `tickets_fts`(rowid, ticket_number, invoice_number) VALUES (new.id, new.ticket_number, new.invoice_number);
END;
--> statement-breakpoint
CREATE TRIGGER `tickets_fts_ad` AFTER DELETE ON `tickets` BEGIN
  INSERT INTO `tickets_fts`(`tickets_fts`, rowid, ticket_number, invoice_number) VALUES ('delete', old.id, old.ticket_number, old.invoice_number);
END;
--> statement-breakpoint
CREATE TRIGGER `tickets_fts_au` AFTER UPDATE OF ticket_number, invoice_number ON `tickets` BEGIN
  INSERT INTO `tickets_fts`(`tickets_fts`, rowid, ticket_number, invoice_number) VALUES ('delete', old.id, old.ticket_number, old.invoice_number);
  INSERT INTO `tickets_fts`(rowid, ticket_number, invoice_number) VALUES (new.id, new.ticket_number, new.invoice_number);
END;
--> statement-breakpoint
INSERT INTO `tickets_fts`(`tickets_fts`) VALUES ('rebuild');
--> statement-breakpoint
CREATE VIRTUAL TABLE `jobs_fts` USING fts5(job_number, content='jobs', content_rowid='id', tokenize='trigram');
--> statement-breakpoint
CREATE TRIGGER `jobs_fts_ai` AFTER INSERT ON `jobs` BEGIN
  INSERT INTO `jobs_fts`(rowid, job_number) VALUES (new.id, new.job_number);
END;
--> statement-breakpoint
CREATE TRIGGER `jobs_fts_ad` AFTER DELETE ON `jobs` BEGIN
  INSERT INTO `jobs_fts`(`jobs_fts`, rowid, job_number) VALUES ('delete', old.id, old.job_number);
END;
--> statement-breakpoint
CREATE TRIGGER `jobs_fts_au` AFTER UPDATE OF job_number ON `jobs` BEGIN
  INSERT INTO `jobs_fts`(`jobs_fts`, rowid, job_number) VALUES ('delete', old.id, old.job_number);
  INSERT INTO `jobs_fts`(rowid, job_number) VALUES (new.id, new.job_number);
END;
--> statement-breakpoint
INSERT INTO `jobs_fts`(`jobs_fts`) VALUES ('rebuild');
