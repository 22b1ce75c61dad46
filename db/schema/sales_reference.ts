import { sql } from "drizzle-orm";
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { companies } from "./companies.ts";
import { users } from "./users.ts";
import { CATEGORY_MODELS } from "../../lib/enums.ts";

const now = sql`(strftime('%Y-%m-%dT%H:%M:%SZ','now'))`;

export const taxes = sqliteTable("taxes", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  company_id: integer("company_id").notNull().references(() => companies.id),
  created_by_id: integer("created_by_id").references(() => users.id, { onDelete: "set null" }),
  name: text("name").notNull().default(""),
  state: text("state").notNull().default(""),
  county: text("county").notNull().default(""),
  city: text("city").notNull().default(""),
  /** percents */
  state_rate: real("state_rate"),
  county_rate: real("county_rate"),
  city_rate: real("city_rate"),
  rate: real("rate"),
  notes: text("notes").notNull().default(""),
  created_at: text("created_at").notNull().default(now),
  updated_at: text("updated_at").notNull().default(now),
  /** Bumped when an edited column changes (migration 0033, decision 038): the record's ETag. */
  version: integer("version").notNull().default(1),
}, (t) => [index("taxes_state_county_city_idx").on(t.state, t.county, t.city)]);

/**
 * Inventory categories, item categories, business units and product lines: one table, told apart by
 * `model`. Business units keep their yard locations in `custom.locations`.
 */
export const categories = sqliteTable("categories", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  company_id: integer("company_id").notNull().references(() => companies.id),
  created_by_id: integer("created_by_id").references(() => users.id, { onDelete: "set null" }),
  model: text("model", { enum: CATEGORY_MODELS }).notNull(),
  name: text("name").notNull(),
  notes: text("notes").notNull().default(""),
  custom: text("custom", { mode: "json" }).$type<{ locations?: string[] } & Record<string, unknown>>()
    .notNull()
    .default(sql`'{}'`),
  created_at: text("created_at").notNull().default(now),
  updated_at: text("updated_at").notNull().default(now),
  /** Bumped when an edited column changes (migration 0033, decision 038): the record's ETag. */
  version: integer("version").notNull().default(1),
}, (t) => [
  uniqueIndex("categories_model_name_unique").on(t.model, sql`${t.name} collate nocase`),
  // Sales Data's sorts on the ticket's business unit and product line walk categories by name.
  index("categories_name_idx").on(sql`${t.name} collate nocase`),
]);

/** Sub product lines, each under a product line. */
export const sub_categories = sqliteTable(
  "sub_categories",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    company_id: integer("company_id").notNull().references(() => companies.id),
    created_by_id: integer("created_by_id").references(() => users.id, { onDelete: "set null" }),
    category_id: integer("category_id").notNull().references(() => categories.id, { onDelete: "restrict" }),
    model: text("model").notNull().default("Sub Product Line"),
    name: text("name").notNull(),
    notes: text("notes").notNull().default(""),
    created_at: text("created_at").notNull().default(now),
    updated_at: text("updated_at").notNull().default(now),
    /** Bumped when an edited column changes (migration 0033, decision 038): the record's ETag. */
    version: integer("version").notNull().default(1),
  },
  (t) => [
    uniqueIndex("sub_categories_parent_name_unique").on(t.category_id, sql`${t.name} collate nocase`),
    // Sales Data's sort on the ticket's sub product line walks them by name.
    index("sub_categories_name_idx").on(sql`${t.name} collate nocase`),
  ],
);

export type Tax = typeof taxes.$inferSelect;
export type Category = typeof categories.$inferSelect;
export type NewCategory = typeof categories.$inferInsert;
export type SubCategory = typeof sub_categories.$inferSelect;
