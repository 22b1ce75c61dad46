import { eq } from "drizzle-orm";
import { z } from "zod";
import { inventory, items } from "../../../../db/schema/mod.ts";
import type { Ctx } from "../../../lib/context.ts";
import { commaIds, parse } from "../../../lib/validate.ts";
import { LabelSheetParam, qrLabelsResponse } from "../../../lib/qr_labels.ts";
import { publicOrigin } from "../../../lib/public_origin.ts";
import { requireAbility } from "../../../../lib/policy.ts";
import { AppError, invalid } from "../../../../lib/errors.ts";
import { MAX_LABELS } from "../../../../lib/label_sheets.ts";
import { inJson } from "../../../../db/in_json.ts";

export const NO_ROWS_MESSAGE = "Select at least one row";
export const GONE_MESSAGE = "Some of the selected rows no longer exist. Refresh the list and try again.";
export const NO_SERIAL_MESSAGE = "Only rows with a serial number get a QR label.";

/** GET /api/sales/inventory/labels: the chosen rows (in the order given) on one label stock. */
export const InventoryLabelsQuery = z.object({
  ids: commaIds(MAX_LABELS),
  size: LabelSheetParam,
});
export type InventoryLabelsQuery = z.infer<typeof InventoryLabelsQuery>;

/**
 * The QR labels of inventory rows, for the sales staff who see the inventory lists. The codes link to the
 * tenant's public origin, else to `origin`, the request's (decision 047).
 */
export async function inventoryLabels(ctx: Ctx, input: unknown, origin: string): Promise<Response> {
  requireAbility(ctx.user, "sales.read");
  const q = parse(InventoryLabelsQuery, input);
  const ids = q.ids ?? [];
  if (!ids.length) throw invalid("ids", NO_ROWS_MESSAGE);
  const rows = await ctx.db.select({
    id: inventory.id,
    serial: inventory.serial_number,
    item: items.item_number,
  }).from(inventory).innerJoin(items, eq(items.id, inventory.item_id)).where(inJson(inventory.id, ids));
  const byId = new Map(rows.map((r) => [r.id, r]));
  if (byId.size !== ids.length) throw new AppError("not_found", GONE_MESSAGE);
  const labels = ids.map((id) => byId.get(id)!);
  if (labels.some((l) => !l.serial.trim())) throw new AppError("invalid", NO_SERIAL_MESSAGE);
  const name = labels.length === 1 ? labels[0].serial : "Inventory";
  return await qrLabelsResponse(labels, q.size, await publicOrigin(ctx, origin), name);
}
