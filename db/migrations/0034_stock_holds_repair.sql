-- Issue 29, point 5 (decision 039): bring what lines hold, and each inventory row's quantity_out and quantity,
-- to what the lines say, for tenants whose data was written before approving an invoice used up its
-- expendables. Hand-written data repair; no schema change.
--
-- A line of a ticket that is not a quote should hold its quantity less what came back (log quantity_in,
-- removed units included) and what was sold (log quantity_sold), less what it has booked but not started
-- (quantity_pending, decision 028); nothing when it is a charge code or sold. An expendable line on an
-- approved invoice holds nothing: what it held is used up now, as approving does from now on (a
-- "Used on Invoice" log entry on the line, quantity sold; the row's quantity and quantity_out fall by it).
-- Then each row's quantity_out is the sum of its lines' holds. Every change is audited in this transaction
-- like a service's: "Used on Invoice" per line (quantity change -n, the running quantity), and
-- "Stock Repair (hold)" per row whose quantity_out moved otherwise (quantity change = the change of what is
-- available, as line saves write it). The rows are attributed to "Migration 0034" (no user).
--
-- The CHECK on inventory is never broken: a row whose lines would hold more than it has free keeps what it
-- can (its quantity_out is capped at quantity less quantity_out_location); such a row is left for a person
-- to look at and is named by its audit row's smaller change.
CREATE TABLE `_repair_0034_lines` AS
SELECT s.`id` AS `sale_id`, s.`inventory_id`, s.`start_date`, s.`quantity_held` AS `held_before`,
       t.`ticket_number`, coalesce(t.`invoice_number`, '') AS `invoice_number`,
       coalesce((SELECT c.`name` FROM `companies` c WHERE c.`id` = t.`customer_id`), '') AS `customer_name`,
       coalesce((SELECT u.`name` FROM `users` u WHERE u.`id` = t.`sales_rep_id`), '') AS `sales_rep_name`,
       CASE WHEN it.`is_expendable` AND it.`inventory_type` <> 'Charge Code' AND t.`status` = 'APP'
                 AND s.`quantity_held` > 0 THEN s.`quantity_held` ELSE 0 END AS `used`,
       CASE
         WHEN it.`inventory_type` = 'Charge Code' OR s.`is_sold` THEN 0
         WHEN it.`is_expendable` AND t.`status` = 'APP' THEN 0
         ELSE max(CAST(s.`quantity` AS integer) - coalesce(l.`qin`, 0) - coalesce(l.`sold`, 0)
                  - s.`quantity_pending`, 0)
       END AS `held_after`,
       CASE WHEN it.`is_expendable` AND it.`inventory_type` <> 'Charge Code' AND t.`status` = 'APP'
            THEN 0 ELSE s.`quantity_pending` END AS `pending_after`
  FROM `sales` s
  JOIN `tickets` t ON t.`id` = s.`ticket_id`
  JOIN `inventory` i ON i.`id` = s.`inventory_id`
  JOIN `items` it ON it.`id` = i.`item_id`
  LEFT JOIN (SELECT `sale_id`, sum(`quantity_in`) AS `qin`, sum(`quantity_sold`) AS `sold`
               FROM `inventory_log` GROUP BY `sale_id`) l ON l.`sale_id` = s.`id`
 WHERE t.`status` <> 'QUOTE' AND NOT t.`is_quote`;
--> statement-breakpoint
-- Quotes hold nothing.
INSERT INTO `_repair_0034_lines`
SELECT s.`id`, s.`inventory_id`, s.`start_date`, s.`quantity_held`, t.`ticket_number`, '', '', '', 0, 0, 0
  FROM `sales` s JOIN `tickets` t ON t.`id` = s.`ticket_id`
 WHERE (t.`status` = 'QUOTE' OR t.`is_quote`) AND (s.`quantity_held` <> 0 OR s.`quantity_pending` <> 0);
--> statement-breakpoint
-- Per row: what it had, what is used up, what its lines will hold.
CREATE TABLE `_repair_0034_rows` AS
SELECT i.`id` AS `inventory_id`, i.`quantity` AS `quantity_before`, i.`quantity_out` AS `out_before`,
       i.`quantity_out_location` AS `at_locations`,
       coalesce((SELECT sum(r.`used`) FROM `_repair_0034_lines` r WHERE r.`inventory_id` = i.`id`), 0) AS `used`,
       coalesce((SELECT sum(s.`quantity_held`) FROM `sales` s JOIN `tickets` t ON t.`id` = s.`ticket_id`
                  WHERE s.`inventory_id` = i.`id` AND t.`status` <> 'QUOTE' AND NOT t.`is_quote`
                    AND s.`id` NOT IN (SELECT `sale_id` FROM `_repair_0034_lines`)), 0)
       + coalesce((SELECT sum(r.`held_after`) FROM `_repair_0034_lines` r WHERE r.`inventory_id` = i.`id`), 0)
         AS `held`
  FROM `inventory` i;
--> statement-breakpoint
ALTER TABLE `_repair_0034_rows` ADD COLUMN `quantity_after` integer;
--> statement-breakpoint
ALTER TABLE `_repair_0034_rows` ADD COLUMN `out_after` integer;
--> statement-breakpoint
UPDATE `_repair_0034_rows` SET `quantity_after` = max(`quantity_before` - `used`, `at_locations`, 0);
--> statement-breakpoint
UPDATE `_repair_0034_rows` SET `out_after` = max(min(`held`, `quantity_after` - `at_locations`), 0);
--> statement-breakpoint
DELETE FROM `_repair_0034_rows` WHERE `quantity_after` = `quantity_before` AND `out_after` = `out_before`;
--> statement-breakpoint
-- The line's log: the use, with the row's running quantity (lines of one row in id order).
INSERT INTO `inventory_log` (`sale_id`, `inventory_id`, `date`, `quantity_sold`, `starting_quantity`,
                             `ending_quantity`, `action`, `user_name`)
SELECT l.`sale_id`, l.`inventory_id`, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), l.`used`,
       w.`quantity_before` - coalesce((SELECT sum(p.`used`) FROM `_repair_0034_lines` p
                                       WHERE p.`inventory_id` = l.`inventory_id` AND p.`sale_id` < l.`sale_id`), 0),
       w.`quantity_before` - coalesce((SELECT sum(p.`used`) FROM `_repair_0034_lines` p
                                       WHERE p.`inventory_id` = l.`inventory_id` AND p.`sale_id` <= l.`sale_id`), 0),
       'Used on Invoice', 'Migration 0034'
  FROM `_repair_0034_lines` l JOIN `_repair_0034_rows` w ON w.`inventory_id` = l.`inventory_id`
 WHERE l.`used` > 0
 ORDER BY l.`sale_id`;
--> statement-breakpoint
UPDATE `sales`
   SET `quantity_held` = (SELECT r.`held_after` FROM `_repair_0034_lines` r WHERE r.`sale_id` = `sales`.`id`),
       `quantity_pending` = (SELECT r.`pending_after` FROM `_repair_0034_lines` r WHERE r.`sale_id` = `sales`.`id`),
       `updated_at` = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
 WHERE `id` IN (SELECT r.`sale_id` FROM `_repair_0034_lines` r
                 WHERE r.`held_after` <> r.`held_before` OR r.`pending_after` <> (SELECT s.`quantity_pending`
                       FROM `sales` s WHERE s.`id` = r.`sale_id`));
--> statement-breakpoint
-- Both moved in one statement: lowering quantity first could break the CHECK while quantity_out is still high.
UPDATE `inventory`
   SET `quantity` = (SELECT w.`quantity_after` FROM `_repair_0034_rows` w WHERE w.`inventory_id` = `inventory`.`id`),
       `quantity_out` = (SELECT w.`out_after` FROM `_repair_0034_rows` w WHERE w.`inventory_id` = `inventory`.`id`),
       `updated_at` = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
 WHERE `id` IN (SELECT `inventory_id` FROM `_repair_0034_rows`);
--> statement-breakpoint
-- Audit, as recordAudit writes it: the row as it stands, names copied, locations as "Name: qty".
-- First each use (the running quantity after it), then each row's hold repair (its quantity now).
INSERT INTO `inventory_audit` (`action`, `updated_by_name`, `inventory_id`, `serial_number`, `item_number`,
  `item_description`, `status`, `quantity`, `quantity_change`, `category`, `business_unit`, `locations`,
  `calculated_inventory_status`, `ticket_number`, `invoice_number`, `customer_name`, `sales_rep_name`,
  `start_date`)
SELECT 'Used on Invoice', 'Migration 0034', i.`id`, i.`serial_number`, it.`item_number`, it.`item_description`,
       i.`status`,
       w.`quantity_before` - (SELECT sum(p.`used`) FROM `_repair_0034_lines` p
                               WHERE p.`inventory_id` = l.`inventory_id` AND p.`sale_id` <= l.`sale_id`),
       -l.`used`,
       coalesce((SELECT c.`name` FROM `categories` c WHERE c.`id` = i.`category_id`), ''),
       coalesce((SELECT c.`name` FROM `categories` c WHERE c.`id` = i.`business_unit_id`), ''),
       coalesce((SELECT group_concat(x.`name` || ': ' || x.`quantity`, ', ') FROM
                  (SELECT `name`, `quantity` FROM `inventory_locations`
                    WHERE `inventory_id` = i.`id` AND `quantity` > 0 ORDER BY `name`) x), ''),
       CASE WHEN i.`status` IN ('Repair', 'Out') THEN i.`status`
            WHEN i.`quantity` - i.`quantity_out` - i.`quantity_out_location` > 0 THEN 'Available' ELSE 'Out' END,
       l.`ticket_number`, l.`invoice_number`, l.`customer_name`, l.`sales_rep_name`, l.`start_date`
  FROM `_repair_0034_lines` l
  JOIN `_repair_0034_rows` w ON w.`inventory_id` = l.`inventory_id`
  JOIN `inventory` i ON i.`id` = l.`inventory_id`
  JOIN `items` it ON it.`id` = i.`item_id`
 WHERE l.`used` > 0
 ORDER BY l.`sale_id`;
--> statement-breakpoint
INSERT INTO `inventory_audit` (`action`, `updated_by_name`, `inventory_id`, `serial_number`, `item_number`,
  `item_description`, `status`, `quantity`, `quantity_change`, `category`, `business_unit`, `locations`,
  `calculated_inventory_status`)
SELECT 'Stock Repair (hold)', 'Migration 0034', i.`id`, i.`serial_number`, it.`item_number`, it.`item_description`,
       i.`status`, i.`quantity`,
       -- What is available changed by this much besides the uses (which left quantity and quantity_out together).
       (w.`out_before` - w.`used`) - w.`out_after`,
       coalesce((SELECT c.`name` FROM `categories` c WHERE c.`id` = i.`category_id`), ''),
       coalesce((SELECT c.`name` FROM `categories` c WHERE c.`id` = i.`business_unit_id`), ''),
       coalesce((SELECT group_concat(x.`name` || ': ' || x.`quantity`, ', ') FROM
                  (SELECT `name`, `quantity` FROM `inventory_locations`
                    WHERE `inventory_id` = i.`id` AND `quantity` > 0 ORDER BY `name`) x), ''),
       CASE WHEN i.`status` IN ('Repair', 'Out') THEN i.`status`
            WHEN i.`quantity` - i.`quantity_out` - i.`quantity_out_location` > 0 THEN 'Available' ELSE 'Out' END
  FROM `_repair_0034_rows` w
  JOIN `inventory` i ON i.`id` = w.`inventory_id`
  JOIN `items` it ON it.`id` = i.`item_id`
 WHERE w.`out_before` - w.`used` <> w.`out_after`
 ORDER BY w.`inventory_id`;
--> statement-breakpoint
DROP TABLE `_repair_0034_rows`;
--> statement-breakpoint
DROP TABLE `_repair_0034_lines`;
