// Shared set-up of the check-in, reclass and transfer tests: a ticket line holding stock.
import { asc, eq, sql } from "drizzle-orm";
import type { TestEnv } from "../../../scripts/testing/harness.ts";
import { makeCategory, makeInventory, makeItem, makeLine, makeTicket } from "../../../db/factories.ts";
import {
  inventory,
  inventory_audit,
  inventory_log,
  type NewInventoryRow,
  type NewItem,
  type NewSale,
  type NewTicket,
  sales,
} from "../../../db/schema/mod.ts";

export interface LineSetup {
  ticketId: number;
  lineId: number;
  inventoryId: number;
  unitId: number;
  itemId: number;
}

/**
 * A line of `quantity` on a ticket (new unless given) holding that much of a row of `stock`
 * (quantity_held and the row's quantity_out raised together, as a line save would).
 */
export async function heldLine(
  env: TestEnv,
  opts: {
    quantity?: number;
    stock?: number;
    item?: Partial<NewItem>;
    row?: Partial<NewInventoryRow>;
    line?: Partial<NewSale>;
    ticket?: Partial<NewTicket>;
  } = {},
): Promise<LineSetup> {
  const db = env.tenant.db;
  const quantity = opts.quantity ?? 5;
  const item = opts.row?.item_id
    ? { id: opts.row.item_id }
    : await makeItem(db, { inventory_type: "Itemized", ...opts.item });
  const unitId = opts.row?.business_unit_id ?? (await makeCategory(db)).id;
  const row = await makeInventory(db, {
    quantity: opts.stock ?? 10,
    ...opts.row,
    item_id: item.id,
    business_unit_id: unitId,
  });
  const ticketId = opts.line?.ticket_id ?? (await makeTicket(db, opts.ticket)).id;
  const line = await makeLine(db, {
    quantity,
    quantity_held: quantity,
    ...opts.line,
    ticket_id: ticketId,
    inventory_id: row.id,
  });
  await db.update(inventory).set({ quantity_out: sql`${inventory.quantity_out} + ${line.quantity_held}` })
    .where(eq(inventory.id, row.id));
  return { ticketId, lineId: line.id, inventoryId: row.id, unitId, itemId: item.id };
}

export const rowOf = (env: TestEnv, id: number) =>
  env.tenant.db.select().from(inventory).where(eq(inventory.id, id)).get();
export const lineOf = (env: TestEnv, id: number) =>
  env.tenant.db.select().from(sales).where(eq(sales.id, id)).get();
export const logOf = (env: TestEnv, saleId: number) =>
  env.tenant.db.select().from(inventory_log).where(eq(inventory_log.sale_id, saleId)).orderBy(
    asc(inventory_log.id),
  );
export const auditOf = (env: TestEnv, inventoryId: number) =>
  env.tenant.db.select().from(inventory_audit).where(eq(inventory_audit.inventory_id, inventoryId))
    .orderBy(asc(inventory_audit.id));

/** A request expecting `status` (200 unless given); answers the JSON body. */
export function post(env: TestEnv, token: string, path: string, json: unknown, status = 200) {
  // deno-lint-ignore no-explicit-any
  return env.json<any>(path, { token, method: "POST", json, status });
}
