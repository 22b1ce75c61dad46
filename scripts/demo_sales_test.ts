import assert from "node:assert/strict";
import { count, eq, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { withEnv } from "./testing/harness.ts";
import { seedDemo } from "./demo.ts";
import { seedSales } from "./demo_sales.ts";
import type { TenantDatabase } from "../db/client.ts";
import {
  categories,
  companies,
  inventory,
  inventory_audit,
  inventory_locations,
  items,
  sub_categories,
  taxes,
  templates,
} from "../db/schema/mod.ts";

const n = async (db: TenantDatabase, table: SQLiteTable) =>
  (await db.select({ n: count() }).from(table))[0].n;

const counts = async (db: TenantDatabase) => ({
  categories: await n(db, categories),
  subCategories: await n(db, sub_categories),
  taxes: await n(db, taxes),
  items: await n(db, items),
  inventory: await n(db, inventory),
  locations: await n(db, inventory_locations),
  audit: await n(db, inventory_audit),
  templates: await n(db, templates),
});

Deno.test("sales demo - a fresh tenant gets units with yards, items of each type, audited stock and templates; twice adds nothing", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    await seedDemo(db, { scryptN: 1024 });
    const first = await counts(db);
    const units = await db.select().from(categories).where(eq(categories.model, "Business Unit"));
    assert.deepEqual(units.map((u) => u.name).sort(), ["Midland", "Odessa", "Pecos"]);
    assert.ok(units.every((u) => (u.custom.locations ?? []).length >= 2), "2-3 yard locations each");
    assert.equal(first.subCategories, 5);
    assert.equal(first.taxes, 3);
    const types = await db.select({ t: items.inventory_type, n: count() }).from(items).groupBy(
      items.inventory_type,
    );
    assert.deepEqual(Object.fromEntries(types.map((t) => [t.t, t.n])), {
      "Charge Code": 6,
      Itemized: 8,
      Serialized: 7,
    });

    // Every stock row: serialized hold one, the location rows add up, nothing negative.
    const rows = await db.select({ inv: inventory, type: items.inventory_type }).from(inventory)
      .innerJoin(items, eq(items.id, inventory.item_id));
    assert.ok(rows.length >= 100, `${rows.length} rows`);
    assert.ok(rows.filter((r) => r.type === "Serialized").every((r) => r.inv.quantity === 1));
    assert.ok(rows.some((r) => r.type === "Itemized" && r.inv.quantity >= 10));
    const held = await db.select({
      id: inventory_locations.inventory_id,
      sum: sql<number>`sum(${inventory_locations.quantity})`,
    }).from(inventory_locations).groupBy(inventory_locations.inventory_id);
    assert.ok(held.length >= 12, "stock at yard locations");
    for (const h of held) {
      assert.equal(rows.find((r) => r.inv.id === h.id)!.inv.quantity_out_location, h.sum);
    }
    assert.ok(rows.every((r) => r.inv.quantity - r.inv.quantity_out - r.inv.quantity_out_location >= 0));

    // Every row was audited; the moves too.
    const audit = await db.select().from(inventory_audit);
    const audited = new Set(audit.map((a) => a.inventory_id));
    assert.ok(rows.every((r) => audited.has(r.inv.id)), "each row has its audit rows");
    const actions = new Set(audit.map((a) => a.action));
    for (
      const a of [
        "Batch Upload",
        "Location Transfer",
        "Business Unit Transfer Out",
        "Business Unit Transfer In",
      ]
    ) {
      assert.ok(actions.has(a), a);
    }
    assert.ok(audit.every((a) => a.updated_by_name === "Administrator"));

    // A template per unit, of that unit's charge codes and itemized rows.
    const token = await env.login();
    for (const u of units) {
      const { results } = await env.json(`/api/sales/templates?search_business_unit=${u.id}`, { token });
      assert.equal(results.length, 1, u.name);
      assert.ok(results[0].inventory.length >= 5);
      assert.ok(
        results[0].inventory.every((r: { item: { inventory_type: string }; business_unit: { id: number } }) =>
          r.item.inventory_type !== "Serialized" && r.business_unit.id === u.id
        ),
      );
    }

    const [owner] = await db.select().from(companies).where(eq(companies.isOwner, true));
    assert.equal(await seedSales(db, owner, "small"), undefined, "a second run seeds nothing");
    await seedDemo(db, { scryptN: 1024 });
    assert.deepEqual(await counts(db), first);
  }));
