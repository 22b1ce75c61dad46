import { eq } from "drizzle-orm";
import { categories, inventory, items, type Ticket } from "../../../db/schema/mod.ts";
import type { Tx } from "../../../db/client.ts";
import { AppError, invalid } from "../../../lib/errors.ts";
import { units } from "../inventory/service/query.ts";
import { fitProblem, fitRefusal, type RowFit } from "./fit.ts";

/**
 * Refuses (422 on inventory_id, a sentence naming the row and, given `line`, the line) a stock row
 * that cannot go out on this ticket: another business unit's stock, or a row not Available on a
 * ticket that is not a quote (see fit.ts). Used by every path that puts a row on a line: the line
 * form's save, a template's lines and a cloned quote's.
 */
export async function requireFit(
  tx: Tx,
  inventoryId: number,
  ticket: Pick<Ticket, "business_unit_id" | "isQuote" | "status">,
  line?: string,
): Promise<void> {
  const row = await tx.select({
    serial_number: inventory.serial_number,
    status: inventory.status,
    business_unit: { id: units.id, name: units.name },
    item: { item_number: items.item_number, item_description: items.item_description },
  }).from(inventory)
    .innerJoin(items, eq(items.id, inventory.item_id))
    .innerJoin(units, eq(units.id, inventory.business_unit_id))
    .where(eq(inventory.id, inventoryId)).get();
  if (!row) throw new AppError("not_found", "Inventory not found.");
  await refuseUnfit(tx, row, ticket, line);
}

/** requireFit on a row the caller has read already (with the fields `RowFit` names). */
export async function refuseUnfit(
  tx: Tx,
  row: RowFit,
  ticket: Pick<Ticket, "business_unit_id" | "isQuote" | "status">,
  line?: string,
): Promise<void> {
  const fit = {
    business_unit_id: ticket.business_unit_id,
    isQuote: ticket.isQuote || ticket.status === "QUOTE",
  };
  if (!fitProblem(row, fit)) return;
  const unit = ticket.business_unit_id
    ? await tx.select({ name: categories.name }).from(categories)
      .where(eq(categories.id, ticket.business_unit_id)).get()
    : undefined;
  throw invalid("inventory_id", fitRefusal(row, { ...fit, business_unit_name: unit?.name }, line)!);
}
