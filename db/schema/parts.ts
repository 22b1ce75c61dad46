import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { companies } from "./companies.ts";
import { users } from "./users.ts";

export const parts = sqliteTable("parts", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().default(""),
  description: text("description").notNull().default(""),
  manufacturer: text("manufacturer").notNull().default(""),
  inspection_company_id: integer("inspection_company_id").notNull().references(() => companies.id),
  user_id: integer("user_id").references(() => users.id, { onDelete: "set null" }),
  custom: text("custom", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
  created_at: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%SZ','now'))`),
  updated_at: text("updated_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%SZ','now'))`),
  /** Bumped when an edited column changes (migration 0033, decision 038): the record's ETag. */
  version: integer("version").notNull().default(1),
}, (t) => [
  index("parts_company_name_idx").on(t.inspection_company_id, sql`${t.name} collate nocase`),
  // The inspections' sort by part name walks parts by name, then each part's inspections.
  index("parts_name_idx").on(sql`${t.name} collate nocase`),
]);

export type Part = typeof parts.$inferSelect;
export type NewPart = typeof parts.$inferInsert;
