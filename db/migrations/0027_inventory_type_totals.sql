-- inventory_totals_idx (migration 0025) served only the Totals row's count and sums, which the figures below
-- now answer: one index less to keep on every write of a stock row.
DROP INDEX `inventory_totals_idx`;
--> statement-breakpoint
-- The inventory list's Totals row under its default filters (a type, or none; shown rows, or hidden too), kept
-- by triggers: the rows of each item type and hidden flag counted and their quantities summed as rows are
-- inserted, deleted or changed, and as an item changes type. The Totals row was a count and three sums over
-- each item's range of inventory_totals_idx, about 20 ms for 100,000 rows, run again by the first read after
-- every write. Not in the TypeScript schema: only the list reads it (api/sales/inventory/service/list.ts).
CREATE TABLE `inventory_type_totals` (
  `inventory_type` text NOT NULL,
  `hidden` integer NOT NULL,
  `rows` integer NOT NULL,
  `quantity` integer NOT NULL,
  `quantity_out` integer NOT NULL,
  `quantity_out_location` integer NOT NULL,
  PRIMARY KEY (`inventory_type`, `hidden`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `inventory_type_totals`
  SELECT i.`inventory_type`, v.`hidden`, count(*), sum(v.`quantity`), sum(v.`quantity_out`), sum(v.`quantity_out_location`)
  FROM `inventory` v JOIN `items` i ON i.`id` = v.`item_id`
  GROUP BY i.`inventory_type`, v.`hidden`;
--> statement-breakpoint
CREATE TRIGGER `inventory_type_totals_ai` AFTER INSERT ON `inventory` BEGIN
  INSERT INTO `inventory_type_totals`
    VALUES ((SELECT `inventory_type` FROM `items` WHERE `id` = new.`item_id`), new.`hidden`, 1, new.`quantity`,
      new.`quantity_out`, new.`quantity_out_location`)
    ON CONFLICT DO UPDATE SET `rows` = `rows` + 1, `quantity` = `quantity` + excluded.`quantity`,
      `quantity_out` = `quantity_out` + excluded.`quantity_out`,
      `quantity_out_location` = `quantity_out_location` + excluded.`quantity_out_location`;
END;
--> statement-breakpoint
CREATE TRIGGER `inventory_type_totals_ad` AFTER DELETE ON `inventory` BEGIN
  UPDATE `inventory_type_totals` SET `rows` = `rows` - 1, `quantity` = `quantity` - old.`quantity`,
    `quantity_out` = `quantity_out` - old.`quantity_out`,
    `quantity_out_location` = `quantity_out_location` - old.`quantity_out_location`
  WHERE `inventory_type` = (SELECT `inventory_type` FROM `items` WHERE `id` = old.`item_id`) AND `hidden` = old.`hidden`;
END;
--> statement-breakpoint
CREATE TRIGGER `inventory_type_totals_au`
AFTER UPDATE OF `item_id`, `hidden`, `quantity`, `quantity_out`, `quantity_out_location` ON `inventory`
WHEN old.`item_id` IS NOT new.`item_id` OR old.`hidden` IS NOT new.`hidden` OR old.`quantity` IS NOT new.`quantity`
  OR old.`quantity_out` IS NOT new.`quantity_out` OR old.`quantity_out_location` IS NOT new.`quantity_out_location`
BEGIN
  UPDATE `inventory_type_totals` SET `rows` = `rows` - 1, `quantity` = `quantity` - old.`quantity`,
    `quantity_out` = `quantity_out` - old.`quantity_out`,
    `quantity_out_location` = `quantity_out_location` - old.`quantity_out_location`
  WHERE `inventory_type` = (SELECT `inventory_type` FROM `items` WHERE `id` = old.`item_id`) AND `hidden` = old.`hidden`;
  INSERT INTO `inventory_type_totals`
    VALUES ((SELECT `inventory_type` FROM `items` WHERE `id` = new.`item_id`), new.`hidden`, 1, new.`quantity`,
      new.`quantity_out`, new.`quantity_out_location`)
    ON CONFLICT DO UPDATE SET `rows` = `rows` + 1, `quantity` = `quantity` + excluded.`quantity`,
      `quantity_out` = `quantity_out` + excluded.`quantity_out`,
      `quantity_out_location` = `quantity_out_location` + excluded.`quantity_out_location`;
END;
--> statement-breakpoint
CREATE TRIGGER `inventory_type_totals_item_au` AFTER UPDATE OF `inventory_type` ON `items`
WHEN old.`inventory_type` IS NOT new.`inventory_type`
BEGIN
  UPDATE `inventory_type_totals` SET
    `rows` = `rows` - (SELECT count(*) FROM `inventory` v WHERE v.`item_id` = new.`id` AND v.`hidden` = `inventory_type_totals`.`hidden`),
    `quantity` = `quantity` - (SELECT coalesce(sum(v.`quantity`), 0) FROM `inventory` v WHERE v.`item_id` = new.`id` AND v.`hidden` = `inventory_type_totals`.`hidden`),
    `quantity_out` = `quantity_out` - (SELECT coalesce(sum(v.`quantity_out`), 0) FROM `inventory` v WHERE v.`item_id` = new.`id` AND v.`hidden` = `inventory_type_totals`.`hidden`),
    `quantity_out_location` = `quantity_out_location` - (SELECT coalesce(sum(v.`quantity_out_location`), 0) FROM `inventory` v WHERE v.`item_id` = new.`id` AND v.`hidden` = `inventory_type_totals`.`hidden`)
  WHERE `inventory_type` = old.`inventory_type`;
  INSERT INTO `inventory_type_totals`
    SELECT new.`inventory_type`, v.`hidden`, count(*), sum(v.`quantity`), sum(v.`quantity_out`), sum(v.`quantity_out_location`)
    FROM `inventory` v WHERE v.`item_id` = new.`id` GROUP BY v.`hidden`
    ON CONFLICT DO UPDATE SET `rows` = `rows` + excluded.`rows`, `quantity` = `quantity` + excluded.`quantity`,
      `quantity_out` = `quantity_out` + excluded.`quantity_out`,
      `quantity_out_location` = `quantity_out_location` + excluded.`quantity_out_location`;
END;
