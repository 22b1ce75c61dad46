-- The ticket lists' total under their page's filters (a company; a stage or several; quotes or not; paid and
-- signed hidden or not), kept by triggers: the tickets of each company, status and flags counted as they are
-- inserted, deleted or change status or flags. The total was a count of the company's tickets through the
-- status index, 6-10 ms for 50,000 tickets, run again by the first read after every write (every line saved):
-- one turn of the event loop that every tenant's requests wait for, growing with the tickets. Not in the
-- TypeScript schema: only the list reads it (api/sales/tickets/service/list_tickets.ts).
CREATE TABLE `ticket_flag_counts` (
  `company_id` integer NOT NULL,
  `status` text NOT NULL,
  `is_quote` integer NOT NULL,
  `is_paid` integer NOT NULL,
  `is_signed` integer NOT NULL,
  `tickets` integer NOT NULL,
  PRIMARY KEY (`company_id`, `status`, `is_quote`, `is_paid`, `is_signed`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `ticket_flag_counts`
  SELECT `company_id`, `status`, `is_quote`, `is_paid`, `is_signed`, count(*) FROM `tickets`
  GROUP BY `company_id`, `status`, `is_quote`, `is_paid`, `is_signed`;
--> statement-breakpoint
CREATE TRIGGER `ticket_flag_counts_ai` AFTER INSERT ON `tickets` BEGIN
  INSERT INTO `ticket_flag_counts`
    VALUES (new.`company_id`, new.`status`, new.`is_quote`, new.`is_paid`, new.`is_signed`, 1)
    ON CONFLICT DO UPDATE SET `tickets` = `tickets` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `ticket_flag_counts_ad` AFTER DELETE ON `tickets` BEGIN
  UPDATE `ticket_flag_counts` SET `tickets` = `tickets` - 1
    WHERE `company_id` = old.`company_id` AND `status` = old.`status` AND `is_quote` = old.`is_quote`
      AND `is_paid` = old.`is_paid` AND `is_signed` = old.`is_signed`;
END;
--> statement-breakpoint
CREATE TRIGGER `ticket_flag_counts_au` AFTER UPDATE OF `company_id`, `status`, `is_quote`, `is_paid`, `is_signed`
ON `tickets`
WHEN old.`company_id` IS NOT new.`company_id` OR old.`status` IS NOT new.`status`
  OR old.`is_quote` IS NOT new.`is_quote` OR old.`is_paid` IS NOT new.`is_paid`
  OR old.`is_signed` IS NOT new.`is_signed`
BEGIN
  UPDATE `ticket_flag_counts` SET `tickets` = `tickets` - 1
    WHERE `company_id` = old.`company_id` AND `status` = old.`status` AND `is_quote` = old.`is_quote`
      AND `is_paid` = old.`is_paid` AND `is_signed` = old.`is_signed`;
  INSERT INTO `ticket_flag_counts`
    VALUES (new.`company_id`, new.`status`, new.`is_quote`, new.`is_paid`, new.`is_signed`, 1)
    ON CONFLICT DO UPDATE SET `tickets` = `tickets` + 1;
END;
