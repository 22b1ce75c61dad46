import { sql } from "drizzle-orm";
import { check, index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { companies } from "./companies.ts";
import { users } from "./users.ts";
import { categories } from "./sales_reference.ts";
import { INVENTORY_STATUSES, INVENTORY_TYPES } from "../../lib/enums.ts";

const now = sql`(strftime('%Y-%m-%dT%H:%M:%SZ','now'))`;

/** The item catalogue: what can be rented or sold. */
export const items = sqliteTable("items", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  company_id: integer("company_id").notNull().references(() => companies.id),
  created_by_id: integer("created_by_id").references(() => users.id, { onDelete: "set null" }),
  item_number: text("item_number").notNull(),
  item_description: text("item_description").notNull().default(""),
  rate: real("rate"),
  units: text("units").notNull().default(""),
  inventory_type: text("inventory_type", { enum: INVENTORY_TYPES }).notNull(),
  item_type: text("item_type").notNull().default(""),
  isTaxable: integer("is_taxable", { mode: "boolean" }).notNull().default(false),
  isExpendable: integer("is_expendable", { mode: "boolean" }).notNull().default(false),
  isService: integer("is_service", { mode: "boolean" }).notNull().default(false),
  category_id: integer("category_id").references(() => categories.id, { onDelete: "set null" }),
  notes: text("notes").notNull().default(""),
  custom: text("custom", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
  created_at: text("created_at").notNull().default(now),
  updated_at: text("updated_at").notNull().default(now),
  /** Bumped when an edited column changes (migration 0033, decision 038): the record's ETag. */
  version: integer("version").notNull().default(1),
}, (t) => [
  uniqueIndex("items_number_unique").on(sql`${t.item_number} collate nocase`),
  index("items_description_idx").on(sql`${t.item_description} collate nocase`),
]);

/**
 * Stock of one item with one serial number in one business unit. `quantity_out` is what ticket lines
 * hold, `quantity_out_location` what sits at named yard locations (the sum of inventory_locations);
 * the CHECK keeps quantity_available from ever going negative, whatever the code above it does.
 */
export const inventory = sqliteTable("inventory", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  company_id: integer("company_id").notNull().references(() => companies.id),
  item_id: integer("item_id").notNull().references(() => items.id, { onDelete: "restrict" }),
  business_unit_id: integer("business_unit_id").notNull().references(() => categories.id, {
    onDelete: "restrict",
  }),
  serial_number: text("serial_number").notNull().default(""),
  inventory_description: text("inventory_description").notNull().default(""),
  category_id: integer("category_id").references(() => categories.id, { onDelete: "set null" }),
  status: text("status", { enum: INVENTORY_STATUSES }).notNull().default("Available"),
  /**
   * Put into Repair by the return gate at check-in (company setting `Sales.returnGate`): the next
   * passing inspection of its serial makes it Available. A status set by hand clears it.
   */
  held_for_inspection: integer("held_for_inspection", { mode: "boolean" }).notNull().default(false),
  quantity: integer("quantity").notNull().default(0),
  quantity_out: integer("quantity_out").notNull().default(0),
  quantity_out_location: integer("quantity_out_location").notNull().default(0),
  hidden: integer("hidden", { mode: "boolean" }).notNull().default(false),
  purchase_date: text("purchase_date"),
  purchase_price: real("purchase_price"),
  manufacturer: text("manufacturer").notNull().default(""),
  location: text("location").notNull().default(""),
  minimum_rate: real("minimum_rate"),
  additional_day: real("additional_day"),
  custom: text("custom", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
  updated_by_id: integer("updated_by_id").references(() => users.id, { onDelete: "set null" }),
  created_at: text("created_at").notNull().default(now),
  updated_at: text("updated_at").notNull().default(now),
  /** Bumped when an edited column changes (migration 0033, decision 038): the record's ETag. */
  version: integer("version").notNull().default(1),
}, (t) => [
  uniqueIndex("inventory_item_unit_serial_unique").on(
    t.item_id,
    t.business_unit_id,
    sql`${t.serial_number} collate nocase`,
  ),
  index("inventory_serial_idx").on(sql`${t.serial_number} collate nocase`),
  // The inventory list's orders: after `hidden` (an equality when hidden rows are left out) each
  // index holds a sort key, then `item_id`, so the page's ids and the item-type filter are read from the
  // index alone. Sorts on the item or the unit walk items / business units in order and these per
  // item / per unit indexes inside them.
  index("inventory_item_serial_idx").on(t.item_id, t.hidden, sql`${t.serial_number} collate nocase`),
  index("inventory_unit_serial_idx").on(
    t.business_unit_id,
    t.hidden,
    sql`${t.serial_number} collate nocase`,
    t.item_id,
  ),
  index("inventory_hidden_serial_idx").on(t.hidden, sql`${t.serial_number} collate nocase`, t.item_id),
  index("inventory_hidden_quantity_idx").on(t.hidden, t.quantity, t.item_id),
  index("inventory_hidden_available_idx").on(
    t.hidden,
    sql`(${t.quantity} - ${t.quantity_out} - ${t.quantity_out_location})`,
    t.item_id,
  ),
  index("inventory_hidden_updated_idx").on(t.hidden, t.updated_at, t.item_id),
  check(
    "inventory_quantities_check",
    sql`${t.quantity} >= 0 and ${t.quantity_out} >= 0 and ${t.quantity_out_location} >= 0 and ${t.quantity} - ${t.quantity_out} - ${t.quantity_out_location} >= 0`,
  ),
]);

/** Quantity of an inventory row held at a named location of its business unit ('Base' is the rest). */
export const inventory_locations = sqliteTable("inventory_locations", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  inventory_id: integer("inventory_id").notNull().references(() => inventory.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  quantity: integer("quantity").notNull().default(0),
}, (t) => [
  uniqueIndex("inventory_locations_unique").on(t.inventory_id, t.name),
  check("inventory_locations_quantity_check", sql`${t.quantity} >= 0`),
]);

/**
 * One row per change of inventory, written in the same transaction as the change. Names are copied
 * so the log still reads right after an item, unit or user is renamed or deleted.
 */
export const inventory_audit = sqliteTable("inventory_audit", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  action_time: text("action_time").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
  action: text("action").notNull(),
  updated_by_id: integer("updated_by_id").references(() => users.id, { onDelete: "set null" }),
  updated_by_name: text("updated_by_name").notNull().default(""),
  inventory_id: integer("inventory_id").references(() => inventory.id, { onDelete: "set null" }),
  serial_number: text("serial_number").notNull().default(""),
  item_number: text("item_number").notNull().default(""),
  item_description: text("item_description").notNull().default(""),
  status: text("status").notNull().default(""),
  /** the row's quantity after the change, and the change itself */
  quantity: integer("quantity").notNull().default(0),
  quantity_change: integer("quantity_change").notNull().default(0),
  category: text("category").notNull().default(""),
  business_unit: text("business_unit").notNull().default(""),
  locations: text("locations").notNull().default(""),
  calculated_inventory_status: text("calculated_inventory_status").notNull().default(""),
  ticket_number: text("ticket_number").notNull().default(""),
  invoice_number: text("invoice_number").notNull().default(""),
  customer_name: text("customer_name").notNull().default(""),
  sales_rep_name: text("sales_rep_name").notNull().default(""),
  start_date: text("start_date"),
}, (t) => [
  index("inventory_audit_time_idx").on(t.action_time),
  index("inventory_audit_inventory_idx").on(t.inventory_id, t.action_time),
  index("inventory_audit_serial_idx").on(sql`${t.serial_number} collate nocase`),
  index("inventory_audit_item_idx").on(sql`${t.item_number} collate nocase`),
  // One per other sort the audit log offers (its order is the column, then id: the index's own).
  index("inventory_audit_action_idx").on(sql`${t.action} collate nocase`),
  index("inventory_audit_updated_by_idx").on(sql`${t.updated_by_name} collate nocase`),
  index("inventory_audit_status_idx").on(t.status),
  index("inventory_audit_quantity_idx").on(t.quantity),
  index("inventory_audit_unit_idx").on(sql`${t.business_unit} collate nocase`),
]);

/** An ordered list of charge-code and itemized inventory of one business unit, to start tickets from. */
export const templates = sqliteTable("templates", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  company_id: integer("company_id").notNull().references(() => companies.id),
  created_by_id: integer("created_by_id").references(() => users.id, { onDelete: "set null" }),
  name: text("name").notNull(),
  business_unit_id: integer("business_unit_id").notNull().references(() => categories.id, {
    onDelete: "restrict",
  }),
  inventory_ids: text("inventory_ids", { mode: "json" }).$type<number[]>().notNull().default(sql`'[]'`),
  created_at: text("created_at").notNull().default(now),
  updated_at: text("updated_at").notNull().default(now),
  /** Bumped when an edited column changes (migration 0033, decision 038): the record's ETag. */
  version: integer("version").notNull().default(1),
}, (t) => [index("templates_unit_idx").on(t.business_unit_id)]);

export type Item = typeof items.$inferSelect;
export type NewItem = typeof items.$inferInsert;
export type InventoryRow = typeof inventory.$inferSelect;
export type NewInventoryRow = typeof inventory.$inferInsert;
export type InventoryLocation = typeof inventory_locations.$inferSelect;
export type AuditRow = typeof inventory_audit.$inferSelect;
export type Template = typeof templates.$inferSelect;
