import { sql } from "drizzle-orm";
import { blob, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Attachments (pressure-test PDFs, later line documents and logos), stored once per content: a batch's
 * shared PDF is one row however many inspections point at it, and a tenant backup is one file.
 */
export const files = sqliteTable("files", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  sha256: text("sha256").notNull().unique(),
  name: text("name").notNull(),
  content_type: text("content_type").notNull(),
  size: integer("size").notNull(),
  data: blob("data", { mode: "buffer" }).notNull(),
  created_at: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%SZ','now'))`),
});

export type StoredFile = typeof files.$inferSelect;
