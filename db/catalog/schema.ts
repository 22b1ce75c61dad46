import { sql } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const TENANT_STATUSES = ["active", "disabled"] as const;

export const tenants = sqliteTable("tenants", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  /** `file:` path relative to DATA_DIR (tenants/<slug>.db) or a remote libsql:// / https:// URL. */
  db_url: text("db_url").notNull(),
  db_token: text("db_token"),
  status: text("status", { enum: TENANT_STATUSES }).notNull().default("active"),
  created_at: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%SZ','now'))`),
});

export const tenant_hosts = sqliteTable("tenant_hosts", {
  host: text("host").primaryKey(),
  tenant_id: integer("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
});

/** Small key/value store: the generated session signing secret lives here. */
export const catalog_settings = sqliteTable("catalog_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

/**
 * One row: raised by triggers on every write to tenants and tenant_hosts (migration 0001), so instances that
 * cache host lookups see a change with one small read (decision 057).
 */
export const catalog_generation = sqliteTable("catalog_generation", {
  id: integer("id").primaryKey(),
  n: integer("n").notNull(),
});

export type Tenant = typeof tenants.$inferSelect;
