import { z } from "zod";
import { INVENTORY_TYPES, type InventoryType } from "../../../lib/enums.ts";
import { commaIds, id, IDS_MESSAGE } from "../../lib/validate.ts";

/** Rows a picker search answers; `ids` answers every id it names (up to MAX_IDS). */
export const PICKER_ROWS = 20;
export const MAX_IDS = 500;
export const TYPE_MESSAGE = `Must be one of ${INVENTORY_TYPES.join(", ")}`;
export { IDS_MESSAGE };

/** 'Itemized Inventory' is the older spelling of Itemized: the template picker still sends it. */
const typeOf = (v: string): string => (v === "Itemized Inventory" ? "Itemized" : v);

/** "Charge Code,Itemized Inventory" as a list of types; blank is no filter. */
const typeList = z.preprocess(
  (v) => {
    if (typeof v !== "string") return v;
    const list = v.split(",").map((t) => typeOf(t.trim())).filter(Boolean);
    return list.length ? [...new Set(list)] : undefined;
  },
  z.array(z.enum(INVENTORY_TYPES, { error: TYPE_MESSAGE })).optional(),
);

const idList = commaIds(MAX_IDS);

/**
 * The line picker's search text is what follows the last '| ' of the chosen option's label (the
 * browser sends only that part; the server takes it too, so a full label still searches).
 */
const multi = z.preprocess(
  (v) => (typeof v === "string" ? v.slice(v.lastIndexOf("| ") + 1) : v),
  z.string().trim().max(200).optional().transform((v) => v || undefined),
);

/** GET /api/sales/inventory-rows: the line and template inventory picker. */
export const InventoryRowsQuery = z.object({
  inventory_type: typeList,
  business_unit_id: z.preprocess(
    (v) => (v === "" ? undefined : v),
    id("Unknown business unit", { coerce: true }).optional(),
  ),
  search_multi: multi,
  ids: idList,
  /** the line picker of this ticket: rows of every type (inventory_type and business_unit_id ignored) */
  ticket_id: z.preprocess(
    (v) => (v === "" ? undefined : v),
    id("Must be a ticket id", { coerce: true }).optional(),
  ),
});
export type InventoryRowsQuery = z.infer<typeof InventoryRowsQuery>;

/** One row of the picker: enough to name it and to check it belongs. */
export interface InventoryRowOut {
  id: number;
  serial_number: string;
  inventory_description: string;
  /** Available, Out or Repair: the line picker shows it and offers only what can go out */
  status: string;
  item: { item_number: string; item_description: string; inventory_type: InventoryType };
  business_unit: { id: number; name: string };
  /** what the row holds, out or not: a reclass target must have room (a Serialized row holds 1) */
  quantity: number;
  quantity_available: number;
}
