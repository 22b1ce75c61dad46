import { integer, sqliteTable } from "drizzle-orm/sqlite-core";

/**
 * One row (id 1) whose `version` every `TenantDb.write` transaction bumps: an instance compares it with
 * the value its cached list totals were counted at, so another instance's writes are seen (decision 019).
 */
export const write_version = sqliteTable("write_version", {
  id: integer("id").primaryKey(),
  version: integer("version").notNull(),
});
