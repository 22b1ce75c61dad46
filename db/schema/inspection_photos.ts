import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { files } from "./files.ts";
import { inspections } from "./inspections.ts";
import { users } from "./users.ts";

/**
 * An inspection's photos, in the order they were added (`position`), each pointing at its JPEG or PNG
 * in `files`. Width and height are read from the image when it is stored, so pages and the report lay
 * photos out without opening them.
 */
export const inspection_photos = sqliteTable("inspection_photos", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  inspection_id: integer("inspection_id").notNull().references(() => inspections.id, { onDelete: "cascade" }),
  file_id: integer("file_id").notNull().references(() => files.id),
  position: integer("position").notNull(),
  caption: text("caption").notNull().default(""),
  width: integer("width").notNull(),
  height: integer("height").notNull(),
  created_at: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%SZ','now'))`),
}, (t) => [
  index("inspection_photos_inspection_idx").on(t.inspection_id, t.position),
  index("inspection_photos_file_idx").on(t.file_id),
]);

/**
 * The inspector's signature of an inspection (at most one): a PNG in `files`, with who signed and when
 * (UTC). The signer's name is copied, so the report keeps it if the user is renamed or deleted.
 */
export const inspection_signatures = sqliteTable("inspection_signatures", {
  inspection_id: integer("inspection_id").primaryKey().references(() => inspections.id, {
    onDelete: "cascade",
  }),
  file_id: integer("file_id").notNull().references(() => files.id),
  signer_name: text("signer_name").notNull(),
  signed_by: integer("signed_by").references(() => users.id, { onDelete: "set null" }),
  width: integer("width").notNull(),
  height: integer("height").notNull(),
  signed_at: text("signed_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%SZ','now'))`),
}, (t) => [
  index("inspection_signatures_file_idx").on(t.file_id),
]);

export type InspectionPhoto = typeof inspection_photos.$inferSelect;
export type InspectionSignature = typeof inspection_signatures.$inferSelect;
