-- Decision 057: a number every write to tenants or tenant_hosts raises in its own transaction, so every
-- instance that caches host lookups can tell, with one small read, that its cache is out of date.
CREATE TABLE `catalog_generation` (
	`id` integer PRIMARY KEY NOT NULL CHECK (`id` = 1),
	`n` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `catalog_generation` (`id`, `n`) VALUES (1, 0);
--> statement-breakpoint
CREATE TRIGGER `tenants_generation_insert` AFTER INSERT ON `tenants` BEGIN UPDATE `catalog_generation` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `tenants_generation_update` AFTER UPDATE ON `tenants` BEGIN UPDATE `catalog_generation` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `tenants_generation_delete` AFTER DELETE ON `tenants` BEGIN UPDATE `catalog_generation` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `tenant_hosts_generation_insert` AFTER INSERT ON `tenant_hosts` BEGIN UPDATE `catalog_generation` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `tenant_hosts_generation_update` AFTER UPDATE ON `tenant_hosts` BEGIN UPDATE `catalog_generation` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `tenant_hosts_generation_delete` AFTER DELETE ON `tenant_hosts` BEGIN UPDATE `catalog_generation` SET `n` = `n` + 1 WHERE `id` = 1; END;
