import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

import { COMPANY_TYPES } from "../../lib/enums.ts";
export { COMPANY_TYPES, type CompanyType } from "../../lib/enums.ts";

export const companies = sqliteTable("companies", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  company_type: text("company_type", { enum: COMPANY_TYPES }).notNull(),
  isOwner: integer("is_owner", { mode: "boolean" }).notNull().default(false),
  tax_id: integer("tax_id"),
  custom: text("custom", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
  settings: text("settings", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
  created_at: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%SZ','now'))`),
  updated_at: text("updated_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%SZ','now'))`),
  /** Bumped when an edited column changes (migration 0033, decision 038): the record's ETag. */
  version: integer("version").notNull().default(1),
}, (t) => [
  index("companies_name_idx").on(sql`${t.name} collate nocase`),
  index("companies_type_name_idx").on(t.company_type, t.name),
]);

export type Company = typeof companies.$inferSelect;
export type NewCompany = typeof companies.$inferInsert;
