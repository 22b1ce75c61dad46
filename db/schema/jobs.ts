import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { companies } from "./companies.ts";

export const jobs = sqliteTable("jobs", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /** YYYY-MM-DD */
  date: text("date").notNull(),
  job_number: text("job_number").notNull(),
  inspection_company_id: integer("inspection_company_id").notNull().references(() => companies.id),
  customer_company_id: integer("customer_company_id").notNull().references(() => companies.id),
  operator_company_id: integer("operator_company_id").notNull().references(() => companies.id),
  district: text("district").notNull(),
  inspector: text("inspector").notNull(),
  uv_serial_number: text("uv_serial_number").notNull(),
  uv_recalibration_date: text("uv_recalibration_date").notNull(),
  blacklight_reading: text("blacklight_reading").notNull(),
  ut_serial_number: text("ut_serial_number").notNull(),
  ut_recalibration_date: text("ut_recalibration_date").notNull(),
  comments: text("comments").notNull(),
  custom: text("custom", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
  created_at: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%SZ','now'))`),
  updated_at: text("updated_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%SZ','now'))`),
  /** Bumped when an edited column changes (migration 0033, decision 038): the record's ETag. */
  version: integer("version").notNull().default(1),
}, (t) => [
  index("jobs_inspection_company_date_idx").on(t.inspection_company_id, t.date, t.id),
  index("jobs_customer_date_idx").on(t.customer_company_id, t.date, t.id),
  index("jobs_operator_date_idx").on(t.operator_company_id, t.date, t.id),
  index("jobs_number_idx").on(sql`${t.job_number} collate nocase`),
  // The list's sort by district: the company's jobs in that order (then id), no sort of every job.
  index("jobs_company_district_idx").on(t.inspection_company_id, sql`${t.district} collate nocase`),
  // ... and by job number or inspector (a page's ids read in order, where 5,000 jobs were sorted: 2.3 ms).
  index("jobs_company_number_idx").on(t.inspection_company_id, sql`${t.job_number} collate nocase`, t.id),
  index("jobs_company_inspector_idx").on(t.inspection_company_id, sql`${t.inspector} collate nocase`, t.id),
]);

export type Job = typeof jobs.$inferSelect;
export type NewJob = typeof jobs.$inferInsert;
