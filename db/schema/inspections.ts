import { sql } from "drizzle-orm";
import { index, integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { companies } from "./companies.ts";
import { files } from "./files.ts";
import { jobs } from "./jobs.ts";
import { parts } from "./parts.ts";
import { BAND_COLORS, MPI_RESULTS } from "../../lib/enums.ts";

export const inspections = sqliteTable("inspections", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  job_id: integer("job_id").notNull().references(() => jobs.id, { onDelete: "cascade" }),
  // The job's three companies, copied so scoped searches need no join.
  inspection_company_id: integer("inspection_company_id").notNull().references(() => companies.id),
  customer_company_id: integer("customer_company_id").notNull().references(() => companies.id),
  operator_company_id: integer("operator_company_id").notNull().references(() => companies.id),
  /** YYYY-MM-DD */
  date: text("date").notNull(),
  serial_number: text("serial_number").notNull().default(""),
  batch: text("batch").notNull().default(""),
  part_id: integer("part_id").references(() => parts.id, { onDelete: "set null" }),
  visual_pass: integer("visual_pass", { mode: "boolean" }),
  ut_1: real("ut_1"),
  ut_2: real("ut_2"),
  ut_3: real("ut_3"),
  pressure: real("pressure"),
  band_color: text("band_color", { enum: BAND_COLORS }),
  mpi_result: text("mpi_result", { enum: MPI_RESULTS }),
  notes: text("notes").notNull().default(""),
  pressure_test_file_id: integer("pressure_test_file_id").references(() => files.id, {
    onDelete: "set null",
  }),
  custom: text("custom", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
  /** When it was entered: the default order of the inspection tables (newest first). */
  inspection_time: text("inspection_time").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
  updated_at: text("updated_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%SZ','now'))`),
  /** Bumped when an edited column changes (migration 0033, decision 038): the record's ETag. */
  version: integer("version").notNull().default(1),
}, (t) => [
  index("inspections_job_time_idx").on(t.job_id, t.inspection_time),
  index("inspections_inspection_company_time_idx").on(t.inspection_company_id, t.inspection_time),
  index("inspections_customer_time_idx").on(t.customer_company_id, t.inspection_time),
  index("inspections_operator_time_idx").on(t.operator_company_id, t.inspection_time),
  index("inspections_job_serial_idx").on(t.job_id, sql`${t.serial_number} collate nocase`),
  index("inspections_serial_idx").on(sql`${t.serial_number} collate nocase`),
  index("inspections_batch_idx").on(sql`${t.batch} collate nocase`),
  index("inspections_part_idx").on(t.part_id),
  index("inspections_file_idx").on(t.pressure_test_file_id),
  // One per offered sort, behind the owner's scope column: a sorted page walks the index instead of
  // sorting every row of the company in a temporary B-tree (issue 10).
  index("inspections_company_date_idx").on(t.inspection_company_id, t.date),
  index("inspections_company_serial_idx").on(t.inspection_company_id, sql`${t.serial_number} collate nocase`),
  index("inspections_company_batch_idx").on(t.inspection_company_id, sql`${t.batch} collate nocase`),
  index("inspections_company_band_idx").on(t.inspection_company_id, t.band_color),
  index("inspections_company_mpi_idx").on(t.inspection_company_id, t.mpi_result),
]);

export type Inspection = typeof inspections.$inferSelect;
export type NewInspection = typeof inspections.$inferInsert;
