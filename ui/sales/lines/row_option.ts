import type { ComboOption } from "../../primitives/ComboBox.tsx";
import { formatNumber } from "../../../lib/format.ts";
import type { InventoryRowOut } from "../../../api/sales/inventory_rows/schemas.ts";
import { fitProblem, type TicketFit } from "../../../api/sales/lines/fit.ts";
import { type ReclassEnd, reclassTargetProblem } from "../../../api/sales/lines/reclass_schemas.ts";

/** An option's name: serial | item number | item description. */
export const nameOf = (
  r: { serial_number: string; item: { item_number: string; item_description: string } },
) => [r.serial_number, r.item.item_number, r.item.item_description].filter((s) => s?.trim()).join(" | ");

/** What a picker shows under a stock row's name: its business unit, what is available (not for charge codes), its status. */
export function rowFacts(row: InventoryRowOut): string {
  return [
    row.business_unit.name,
    row.item.inventory_type === "Charge Code"
      ? undefined
      : `${formatNumber(row.quantity_available)} available`,
    row.status,
  ].filter(Boolean).join(" · ");
}

/**
 * The line picker's option of a stock row: its name and facts; a row that cannot go out on this ticket
 * (another unit's, or not Available on a ticket) is shown disabled with the reason, as the server refuses it.
 */
export function rowOption(row: InventoryRowOut, ticket: TicketFit): ComboOption {
  const problem = fitProblem(row, ticket);
  const facts = rowFacts(row);
  return {
    id: row.id,
    name: nameOf(row),
    detail: problem ? `${facts} — cannot go out on this ticket` : facts,
    disabled: !!problem,
  };
}

/** A picker row as `reclassTargetProblem` weighs it. */
export const reclassEnd = (r: InventoryRowOut): ReclassEnd => ({
  business_unit_id: r.business_unit.id,
  serial_number: r.serial_number,
  inventory_type: r.item.inventory_type,
  quantity: r.quantity,
});

/** The reclass picker's options: only the rows `from` may be reclassed to, named as the line picker names them. */
export function reclassOptions(rows: InventoryRowOut[], from: InventoryRowOut): ComboOption[] {
  return rows.filter((to) => !reclassTargetProblem(reclassEnd(from), reclassEnd(to)))
    .map((to) => ({ id: to.id, name: nameOf(to), detail: rowFacts(to) }));
}
