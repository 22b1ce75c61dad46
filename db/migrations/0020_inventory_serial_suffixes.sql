-- Custom SQL migration file, put your code below! --
-- Contains-searches on inventory serial numbers (the inventory lists, Sales Data): every suffix of every
-- serial, lower-cased (ASCII, as LIKE folds case), in one ordered index. A serial contains a term exactly
-- when one of its suffixes starts with the term, so a search reads one range of the index: as many entries
-- as there are matches, where the trigram index (inventory_fts) read whole lists of common trigrams ("-01",
-- "S00") and intersected them (5-12 ms at 100,000 rows; decision 012). Triggers keep it in step; triggers
-- cannot use a WITH clause, so the positions 1..1000 come from a small table (serials are at most 200
-- characters; longer old ones are indexed to their 1,000th character).
CREATE TABLE `suffix_positions` (`i` integer PRIMARY KEY NOT NULL);
--> statement-breakpoint
INSERT INTO `suffix_positions` (`i`)
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) SELECT i FROM n;
--> statement-breakpoint
CREATE TABLE `inventory_serial_suffixes` (
  `suffix` text NOT NULL,
  `inventory_id` integer NOT NULL,
  PRIMARY KEY (`suffix`, `inventory_id`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TRIGGER `inventory_suffixes_ai` AFTER INSERT ON `inventory` BEGIN
  INSERT OR IGNORE INTO `inventory_serial_suffixes` (`suffix`, `inventory_id`)
    SELECT lower(substr(new.serial_number, i)), new.id FROM `suffix_positions` WHERE i <= length(new.serial_number);
END;
--> statement-breakpoint
CREATE TRIGGER `inventory_suffixes_ad` AFTER DELETE ON `inventory` BEGIN
  DELETE FROM `inventory_serial_suffixes` WHERE `inventory_id` = old.id AND `suffix` IN
    (SELECT lower(substr(old.serial_number, i)) FROM `suffix_positions` WHERE i <= length(old.serial_number));
END;
--> statement-breakpoint
CREATE TRIGGER `inventory_suffixes_au` AFTER UPDATE OF serial_number ON `inventory` BEGIN
  DELETE FROM `inventory_serial_suffixes` WHERE `inventory_id` = old.id AND `suffix` IN
    (SELECT lower(substr(old.serial_number, i)) FROM `suffix_positions` WHERE i <= length(old.serial_number));
  INSERT OR IGNORE INTO `inventory_serial_suffixes` (`suffix`, `inventory_id`)
    SELECT lower(substr(new.serial_number, i)), new.id FROM `suffix_positions` WHERE i <= length(new.serial_number);
END;
--> statement-breakpoint
INSERT OR IGNORE INTO `inventory_serial_suffixes` (`suffix`, `inventory_id`)
  SELECT lower(substr(inventory.serial_number, i)), inventory.id FROM `inventory`
  JOIN `suffix_positions` ON i <= length(inventory.serial_number);
