import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { withEnv } from "../../../scripts/testing/harness.ts";
import { inventory, items } from "../../../db/schema/mod.ts";
import { makeItemOf, makeRow, tokenWith } from "./test_fixtures.ts";
import { InventoryListQuery, listInventory } from "./service.ts";

Deno.test("inventory list - the Totals row under its default filters is the figures kept by triggers, through every change", () =>
  withEnv(async (env) => {
    const db = env.tenant.db;
    const user = await env.json("/api/admin/users/me", { token: await tokenWith(env, []) });
    const ctx = { tdb: env.tenant, db, user, config: env.services.config };
    const serialized = await makeItemOf(env, "Serialized", { item_number: "PV2" });
    const itemized = await makeItemOf(env, "Itemized", { item_number: "SW3" });
    const rows: { id: number }[] = [];
    for (let i = 0; i < 6; i++) {
      rows.push(
        await makeRow(env, {
          item_id: i % 2 ? itemized.id : serialized.id,
          serial_number: `S-${i}`,
          quantity: 3 + i,
          hidden: i === 4,
        }),
      );
    }
    const check = async (step: string) => {
      const kept = await env.tenant.client.execute(
        `select inventory_type, hidden, rows, quantity, quantity_out, quantity_out_location
         from inventory_type_totals where rows <> 0 order by 1, 2`,
      );
      const actual = await env.tenant.client.execute(
        `select i.inventory_type, v.hidden, count(*), sum(v.quantity), sum(v.quantity_out),
           sum(v.quantity_out_location)
         from inventory v join items i on i.id = v.item_id group by 1, 2 order by 1, 2`,
      );
      const values = (r: Record<number, unknown>) => [0, 1, 2, 3, 4, 5].map((i) => r[i]);
      assert.deepEqual(kept.rows.map(values), actual.rows.map(values), `${step}: the kept figures`);
      for (const inventory_type of [undefined, "Serialized", "Itemized"]) {
        for (const include_hidden of ["false", "true"]) {
          const q = InventoryListQuery.parse({ inventory_type, include_hidden });
          const { total, totals } = await listInventory(ctx, q);
          // The same figures by a filter the kept ones do not answer (every row of the list in this test).
          const every = (await listInventory(ctx, { ...q, rowsPerPage: -1 })).results;
          assert.equal(total, every.length, `${step} ${inventory_type} ${include_hidden}: the total`);
          const sum = (k: "quantity" | "quantity_out" | "quantity_out_location" | "quantity_available") =>
            every.reduce((n, r) => n + Number(r[k]), 0);
          for (
            const k of ["quantity", "quantity_out", "quantity_out_location", "quantity_available"] as const
          ) {
            assert.equal(totals[k], sum(k), `${step} ${inventory_type} ${include_hidden}: ${k}`);
          }
        }
      }
    };
    await check("made");
    // Through the tenant's writes: they clear the cached figures, as the app's own writes do.
    const tx = env.tenant.write.bind(env.tenant);
    await tx((t) =>
      t.update(inventory).set({ quantity: 20, quantity_out: 2, quantity_out_location: 1 }).where(
        eq(inventory.id, rows[0].id),
      )
    );
    await check("quantities changed");
    await tx((t) => t.update(inventory).set({ hidden: true }).where(eq(inventory.id, rows[1].id)));
    await check("a row hidden");
    await tx((t) => t.update(inventory).set({ item_id: itemized.id }).where(eq(inventory.id, rows[2].id)));
    await check("a row moved to another item");
    await tx((t) => t.update(items).set({ inventory_type: "Itemized" }).where(eq(items.id, serialized.id)));
    await check("an item changed type");
    await tx((t) => t.delete(inventory).where(eq(inventory.id, rows[3].id)));
    await check("a row deleted");
  }));
