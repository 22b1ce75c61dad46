import { z } from "zod";
import { INVENTORY_TYPES, MAX_QUANTITY, maxQuantity } from "../../../lib/enums.ts";
import { customObject, id as boundedId, unitPrice } from "../../lib/validate.ts";

export const ITEM_SORTS = ["item_number", "item_description", "rate", "inventory_type", "item_type"] as const;

export const MAX_BATCH_ROWS = 5000;

/**
 * The add-to-inventory quantity rule: min 0, max 1 for Serialized, else 100000000, whole numbers.
 * The form shows it live; the server applies it with the item's (new or stored) inventory type.
 */
export function quantityError(inventoryType: string | undefined, quantity: number): string | undefined {
  if (!Number.isInteger(quantity)) return "Must be a whole number";
  if (quantity < 0) return "Must be at least 0";
  if (quantity > maxQuantity(inventoryType ?? "")) {
    return inventoryType === "Serialized"
      ? "Cannot exceed 1 for Serialized items"
      : `Cannot exceed ${MAX_QUANTITY}`;
  }
  return undefined;
}

/** Text is trimmed and capped; null clears it (""), absent leaves it as stored on an update. */
const text = (max: number) =>
  z.string().trim().max(max, `At most ${max} characters`).nullish().transform((v) => v === null ? "" : v);

/** A number, or a numeric string (form inputs); "" and null are no value. */
const numeric = (v: unknown) => {
  if (typeof v !== "string") return v;
  const t = v.trim();
  if (t === "") return null;
  return Number.isFinite(Number(t)) ? Number(t) : v;
};
const notNumber = (iss: { input: unknown }) =>
  iss.input === undefined || iss.input === null ? "Required" : "Must be a number";

export const AddToInventory = z.object({
  inventory_serial_number: text(100).transform((v) => v ?? ""),
  // Bounded by checkQuantity with the item's type, in the messages of the spec.
  inventory_quantity: z.preprocess(numeric, z.number({ error: notNumber })),
  inventory_business_unit_id: z.preprocess(numeric, boundedId("Business Unit is required")),
});
export type AddToInventory = z.infer<typeof AddToInventory>;

const fields = {
  item_description: text(1000),
  rate: z.preprocess(numeric, unitPrice({ min: 0, label: "Rate" }).nullish()),
  units: text(100),
  item_type: text(100),
  isTaxable: z.boolean().optional(),
  isExpendable: z.boolean().optional(),
  isService: z.boolean().optional(),
  category_id: z.preprocess(numeric, boundedId("Unknown item category").nullish()),
  notes: text(4000),
  custom: customObject().optional(),
  /** false or null: no inventory is added */
  add_to_inventory: z.preprocess(
    (v) => (v === false || v === null ? undefined : v),
    AddToInventory.optional(),
  ),
};

const itemNumber = z.string({ error: "Required" }).trim().min(1, "Required").max(
  100,
  "At most 100 characters",
);
const inventoryType = z.enum(INVENTORY_TYPES, { error: "Required" });
const id = z.preprocess(numeric, boundedId("Required"));

/**
 * The quantity is checked against the type the body names (always on a create; without one, against
 * the general limits), even while other fields are wrong (`when`), so the form shows it as typed.
 */
function checkQuantity(v: unknown, ctx: z.RefinementCtx) {
  const { inventory_type: type, add_to_inventory: add } = (v ?? {}) as {
    inventory_type?: unknown;
    add_to_inventory?: { inventory_quantity?: unknown };
  };
  const quantity = add && typeof add === "object" ? add.inventory_quantity : undefined;
  if (typeof quantity !== "number") return;
  const known = INVENTORY_TYPES.find((t) => t === type);
  const message = quantityError(known, quantity);
  if (message) ctx.addIssue({ code: "custom", path: ["add_to_inventory", "inventory_quantity"], message });
}
const always = { when: () => true };

/** POST /api/sales/items: item_number and inventory_type required ('Required'). */
export const ItemInput = z.object({
  ...fields,
  id: id.optional(),
  item_number: itemNumber,
  inventory_type: inventoryType,
}).superRefine(checkQuantity, always);
export type ItemInput = z.infer<typeof ItemInput>;

/** PUT /api/sales/items: the id required; absent fields are left as stored. */
export const ItemUpdateInput = z.object({
  ...fields,
  id,
  item_number: itemNumber.optional(),
  inventory_type: inventoryType.optional(),
}).superRefine(checkQuantity, always);
export type ItemUpdateInput = z.infer<typeof ItemUpdateInput>;

/** An item as the API answers it: every stored field and its item category. */
export interface ItemOut {
  /** the record's version: its ETag (decision 038) */
  version: number;
  id: number;
  item_number: string;
  item_description: string;
  rate: number | null;
  units: string;
  inventory_type: (typeof INVENTORY_TYPES)[number];
  item_type: string;
  isTaxable: boolean;
  isExpendable: boolean;
  isService: boolean;
  category_id: number | null;
  category: { id: number; name: string } | null;
  notes: string;
  custom: Record<string, unknown>;
  company_id: number;
  created_by_id: number | null;
  created_at: string;
  updated_at: string;
}

/** POST /api/sales/items/batch answers this. */
/** One row of an items batch preview: a new item, or the stored one it replaces with each field that changes. */
export interface ItemBatchPreviewRow {
  n: number;
  item_number: string;
  existing: boolean;
  changes: { field: string; before: string; after: string }[];
}

export interface ItemBatchPreview {
  rows: ItemBatchPreviewRow[];
  created: number;
  updated: number;
  message: string;
}

export interface ItemBatchResult {
  created: number;
  updated: number;
  message: string;
}
