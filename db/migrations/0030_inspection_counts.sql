-- The inspections list's total with no filter but a job, kept by triggers: the inspections of each job counted
-- with the job's three companies (what a user's scope is by: api/pt/scope.ts), as they are inserted, deleted or
-- moved. The total was a count of every inspection in the user's scope, 4-7 ms for 100,000 inspections, run
-- again by the first read after every write: one turn of the event loop that every tenant's requests wait for,
-- growing with the inspections. Summing a company's jobs' counts reads a row a job. Not in the TypeScript
-- schema: only the list reads it (api/pt/inspections/service/list_inspections.ts).
CREATE TABLE `inspection_counts` (
  `inspection_company_id` integer NOT NULL,
  `customer_company_id` integer NOT NULL,
  `operator_company_id` integer NOT NULL,
  `job_id` integer NOT NULL,
  `inspections` integer NOT NULL,
  PRIMARY KEY (`inspection_company_id`, `customer_company_id`, `operator_company_id`, `job_id`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `inspection_counts`
  SELECT `inspection_company_id`, `customer_company_id`, `operator_company_id`, `job_id`, count(*)
  FROM `inspections`
  GROUP BY `inspection_company_id`, `customer_company_id`, `operator_company_id`, `job_id`;
--> statement-breakpoint
CREATE TRIGGER `inspection_counts_ai` AFTER INSERT ON `inspections` BEGIN
  INSERT INTO `inspection_counts`
    VALUES (new.`inspection_company_id`, new.`customer_company_id`, new.`operator_company_id`, new.`job_id`, 1)
    ON CONFLICT DO UPDATE SET `inspections` = `inspections` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `inspection_counts_ad` AFTER DELETE ON `inspections` BEGIN
  UPDATE `inspection_counts` SET `inspections` = `inspections` - 1
    WHERE `inspection_company_id` = old.`inspection_company_id`
      AND `customer_company_id` = old.`customer_company_id`
      AND `operator_company_id` = old.`operator_company_id` AND `job_id` = old.`job_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `inspection_counts_au`
AFTER UPDATE OF `inspection_company_id`, `customer_company_id`, `operator_company_id`, `job_id` ON `inspections`
WHEN old.`inspection_company_id` IS NOT new.`inspection_company_id`
  OR old.`customer_company_id` IS NOT new.`customer_company_id`
  OR old.`operator_company_id` IS NOT new.`operator_company_id` OR old.`job_id` IS NOT new.`job_id`
BEGIN
  UPDATE `inspection_counts` SET `inspections` = `inspections` - 1
    WHERE `inspection_company_id` = old.`inspection_company_id`
      AND `customer_company_id` = old.`customer_company_id`
      AND `operator_company_id` = old.`operator_company_id` AND `job_id` = old.`job_id`;
  INSERT INTO `inspection_counts`
    VALUES (new.`inspection_company_id`, new.`customer_company_id`, new.`operator_company_id`, new.`job_id`, 1)
    ON CONFLICT DO UPDATE SET `inspections` = `inspections` + 1;
END;
