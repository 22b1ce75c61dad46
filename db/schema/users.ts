import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { companies } from "./companies.ts";

import { ACCOUNT_TYPES } from "../../lib/enums.ts";
export { ACCOUNT_TYPES, type AccountType } from "../../lib/enums.ts";

export const users = sqliteTable("users", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  email: text("email").notNull(),
  phone: text("phone").notNull().default(""),
  password_hash: text("password_hash").notNull(),
  active: integer("active", { mode: "boolean" }).notNull().default(true),
  isSalesRep: integer("is_sales_rep", { mode: "boolean" }).notNull().default(false),
  account_type: text("account_type", { enum: ACCOUNT_TYPES }).notNull(),
  company_id: integer("company_id").notNull().references(() => companies.id, { onDelete: "restrict" }),
  /** Role names and permission names, one merged list (the spec's user form field `permissions`). */
  permissions: text("permissions", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
  categories: text("categories", { mode: "json" }).$type<number[]>().notNull().default(sql`'[]'`),
  categories_bu: text("categories_bu", { mode: "json" }).$type<number[]>().notNull().default(sql`'[]'`),
  jobs: text("jobs", { mode: "json" }).$type<number[]>().notNull().default(sql`'[]'`),
  passwordReset: integer("password_reset", { mode: "boolean" }).notNull().default(false),
  /** Bumped by a password change or deactivation: every session carrying an older value ends. */
  session_version: integer("session_version").notNull().default(1),
  created_at: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%SZ','now'))`),
  updated_at: text("updated_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%SZ','now'))`),
  /** Bumped when an edited column changes (migration 0033, decision 038): the record's ETag. */
  version: integer("version").notNull().default(1),
}, (t) => [
  uniqueIndex("users_email_unique").on(sql`${t.email} collate nocase`),
  index("users_company_idx").on(t.company_id),
  index("users_name_idx").on(sql`${t.name} collate nocase`),
]);

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

/**
 * Sessions ended before their expiry (logging out). A token names its sign-in (`sid`); a row here
 * refuses it on every instance sharing this database. Rows past `expires_at` are pruned: the token
 * would be refused by its own expiry by then.
 */
export const revoked_sessions = sqliteTable("revoked_sessions", {
  sid: text("sid").primaryKey(),
  /** unix seconds */
  expires_at: integer("expires_at").notNull(),
}, (t) => [index("revoked_sessions_expiry_idx").on(t.expires_at)]);

/**
 * Sign-in attempts per throttle key (api/auth/throttle.ts), kept in the tenant database so every
 * instance serving the tenant counts against the same limits. Times are unix milliseconds. `pending`
 * counts attempts whose password is being checked; it is forgotten after `pending_until`, so an instance
 * that died mid-check does not hold a place for ever. A row is dead after `expires_at` and pruned.
 */
export const login_throttle = sqliteTable("login_throttle", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  pending: integer("pending").notNull().default(0),
  pending_until: integer("pending_until").notNull().default(0),
  window_ends: integer("window_ends").notNull(),
  locked_until: integer("locked_until").notNull().default(0),
  lockouts: integer("lockouts").notNull().default(0),
  expires_at: integer("expires_at").notNull(),
}, (t) => [index("login_throttle_expiry_idx").on(t.expires_at)]);
