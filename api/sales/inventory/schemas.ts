import { z } from "zod";
import {
  INVENTORY_STATUSES,
  INVENTORY_TYPES,
  type InventoryStatus,
  MAX_QUANTITY,
  maxQuantity,
} from "../../../lib/enums.ts";
import { ListQuery, optionalText, queryBool, queryEnum } from "../../lib/list_schema.ts";
import { isIsoDate } from "../../../lib/format.ts";
import {
  atLeast,
  atMost,
  customObject,
  id,
  MAX_ID,
  money as boundedMoney,
  NUMBER_MESSAGE,
  quantity,
  unitPrice,
  WHOLE_MESSAGE,
} from "../../lib/validate.ts";

export { INVENTORY_STATUSES, INVENTORY_TYPES, type InventoryStatus, MAX_QUANTITY, maxQuantity };

/**
 * The status a row's quantities give it (the audit log's "calculated inventory status", and the
 * inventory table's Status): Repair or Out when marked so; Out when none of it is free to rent (all
 * on tickets or at named locations, or none owned); else Available.
 */
export function calculatedStatus(
  r: { status: string; quantity: number; quantity_out: number; quantity_out_location: number },
): InventoryStatus {
  if (r.status === "Repair" || r.status === "Out") return r.status;
  return r.quantity - r.quantity_out - r.quantity_out_location > 0 ? "Available" : "Out";
}

export const INVENTORY_SORTS = [
  "serial_number",
  "item_number",
  "item_description",
  "business_unit",
  "quantity",
  "quantity_available",
  "updated_at",
] as const;
export const LOCATION_SORTS = [
  "serial_number",
  "item_number",
  "item_description",
  "business_unit",
  "location",
  "quantity",
] as const;
/** The spec's batch columns, in the order of the upload grid. */
export const INVENTORY_BATCH_COLUMNS = [
  "serial_number",
  "item_number",
  "status",
  "quantity",
  "category",
  "location",
  "purchase_date",
  "purchase_price",
  "manufacturer",
] as const;
export type InventoryBatchColumn = (typeof INVENTORY_BATCH_COLUMNS)[number];
export const MAX_BATCH_ROWS = 5000;
/** The quantity of a row not at any named location of its business unit. */
export const BASE = "Base";

export const REQUIRED = "Required";
export const BUSINESS_UNIT_REQUIRED = "Business Unit is required";
export const POSITIVE_MESSAGE = "Must be a positive number";
export { NUMBER_MESSAGE, WHOLE_MESSAGE };
export const MIN_MESSAGE = atLeast(0);
export const DATE_MESSAGE = "Must be a date (YYYY-MM-DD)";
export const UNKNOWN_ITEM = "Unknown item";
export const UNKNOWN_BUSINESS_UNIT = "Unknown business unit";
export const UNKNOWN_CATEGORY = "Unknown inventory category";
export const UNKNOWN_LOCATION = "Unknown location";
export const STATUS_MESSAGE = `Must be one of ${INVENTORY_STATUSES.join(", ")}`;
export const maxMessage = atMost;
export const exceedsMessage = (available: number) => `Cannot exceed current quantity: ${available}`;
export const belowOutMessage = (out: number) => `Quantity cannot go below what is out: ${out}`;

/** The quantity rule of the inventory form for an item type: the message, or undefined when fine. */
export function quantityProblem(quantity: number, inventoryType: string): string | undefined {
  if (!Number.isInteger(quantity)) return WHOLE_MESSAGE;
  if (quantity < 0) return MIN_MESSAGE;
  const max = maxQuantity(inventoryType);
  return quantity > max ? maxMessage(max) : undefined;
}

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
/** A form or spreadsheet value: strings trimmed, blank strings null. */
const cell = (v: unknown) => {
  if (typeof v !== "string") return v;
  const t = v.trim();
  return t === "" ? null : t;
};
/** Numbers as forms and pasted sheets send them: numeric strings (thousands commas, a $) become numbers. */
const numberish = (v: unknown) => {
  const t = cell(v);
  if (typeof t !== "string") return t;
  const plain = t.replace(/^\$/, "").replace(/,(?=\d{3}(\D|$))/g, "");
  return NUMERIC.test(plain) ? Number(plain) : t;
};
const numberError = (message: string) => (iss: { input?: unknown }) =>
  iss.input === undefined || iss.input === null ? message : NUMBER_MESSAGE;

const requiredId = (message: string) => z.preprocess(numberish, id(message));
const nullableId = (message: string) => z.preprocess(numberish, id(message).nullable()).optional();
const text = (max: number) =>
  z.preprocess(
    (v) => (v === null ? "" : typeof v === "number" ? String(v) : cell(v) ?? ""),
    z.string().max(max, `At most ${max} characters`),
  )
    .optional();
/** Purchase prices and a row's rates: catalogue figures, never negative (credits belong on a line). */
const money = z.preprocess(numberish, boundedMoney({ min: 0, label: "Purchase Price" }).nullable())
  .optional();
/** A row's minimum and additional day rates: unit prices, at most 4 decimals (decision 015). */
const rate = (label: string) => z.preprocess(numberish, unitPrice({ min: 0, label }).nullable()).optional();
const date = z.preprocess(cell, z.string({ error: DATE_MESSAGE }).refine(isIsoDate, DATE_MESSAGE).nullable())
  .optional();
const bool = z.preprocess(
  (v) => (v === "true" ? true : v === "false" ? false : v),
  z.boolean({ error: "Must be true or false" }),
);
/** A stock quantity within the widest limit; the item type's limit is checked where the item is known. */
const stockQuantity = z.preprocess(numberish, quantity({ error: numberError(REQUIRED) }));
/** A quantity to move: required, whole and above zero. */
const moveQuantity = z.preprocess(
  numberish,
  z.number({ error: numberError(REQUIRED) }).int(WHOLE_MESSAGE).positive(POSITIVE_MESSAGE)
    .max(MAX_QUANTITY, maxMessage(MAX_QUANTITY)),
);
/** A status in any case; blank is null. */
const statusValue = (v: unknown) => {
  const t = cell(v);
  if (typeof t !== "string") return t ?? null;
  return INVENTORY_STATUSES.find((s) => s.toLowerCase() === t.toLowerCase()) ?? t;
};
const status = z.preprocess(statusValue, z.enum(INVENTORY_STATUSES, { error: STATUS_MESSAGE }));

/** `Itemized Inventory` is the older spelling of Itemized (the template picker still sends it). */
export const InventoryTypeParam = z.preprocess(
  (v) => (v === "" ? undefined : v === "Itemized Inventory" ? "Itemized" : v),
  z.enum(INVENTORY_TYPES, { error: `Must be one of ${INVENTORY_TYPES.join(", ")}` }).optional(),
);

const listFilters = {
  rowsPerPage: ListQuery.shape.rowsPerPage.unwrap().default(20),
  inventory_type: InventoryTypeParam,
  include_hidden: queryBool.default(false),
  status: queryEnum(INVENTORY_STATUSES),
  business_unit_id: z.preprocess(
    (v) => (v === "" ? undefined : v),
    id("Unknown business unit", { coerce: true }).optional(),
  ),
  search_serial_number: optionalText,
  /** the item's description or the row's own description */
  search_item_description: optionalText,
  search_item_number: optionalText,
  search_inventory_description: optionalText,
};

/** GET /api/sales/inventory (and its download): the inventory pages' URL. */
export const InventoryListQuery = ListQuery.extend({ ...listFilters, sortBy: queryEnum(INVENTORY_SORTS) });
export type InventoryListQuery = z.infer<typeof InventoryListQuery>;

/** GET /api/sales/inventory-locations: the same filters, one row per row and location. */
export const LocationListQuery = ListQuery.extend({ ...listFilters, sortBy: queryEnum(LOCATION_SORTS) });
export type LocationListQuery = z.infer<typeof LocationListQuery>;

/** POST /api/sales/inventory: the inventory form. */
export const InventoryInput = z.object({
  id: nullableId("Unknown inventory"),
  item_id: requiredId(REQUIRED),
  business_unit_id: requiredId(BUSINESS_UNIT_REQUIRED),
  serial_number: text(200),
  inventory_description: text(1000),
  category_id: nullableId(UNKNOWN_CATEGORY),
  status: status.optional(),
  quantity: stockQuantity.optional(),
  hidden: bool.optional(),
  purchase_date: date,
  purchase_price: money,
  manufacturer: text(200),
  location: text(200),
  minimum_rate: rate("Minimum Rate"),
  additional_day: rate("Additional Day"),
  custom: z.preprocess((v) => (v === null ? {} : v), customObject()).optional(),
});
export type InventoryInput = z.infer<typeof InventoryInput>;

/** PUT /api/sales/inventory: the id required; an absent field is left as stored. */
export const InventoryUpdateInput = InventoryInput.extend({
  id: requiredId(REQUIRED),
  item_id: requiredId(REQUIRED).optional(),
  business_unit_id: requiredId(BUSINESS_UNIT_REQUIRED).optional(),
});
export type InventoryUpdateInput = z.infer<typeof InventoryUpdateInput>;

/** PATCH /api/sales/inventory/quantity: new quantities, all saved or none. */
export const QuantityPatchInput = z.array(
  z.object({ id: requiredId(REQUIRED), quantity: stockQuantity }),
  { error: "Expected a list of {id, quantity}" },
).min(1, "Nothing to update").max(MAX_BATCH_ROWS, `At most ${MAX_BATCH_ROWS} rows at once`);
export type QuantityPatchInput = z.infer<typeof QuantityPatchInput>;

/** POST /api/sales/inventory/business-unit-transfer */
export const BusinessUnitTransferInput = z.object({
  inventory_id: requiredId(REQUIRED),
  to_business_unit_id: requiredId(REQUIRED),
  quantity: moveQuantity,
});
export type BusinessUnitTransferInput = z.infer<typeof BusinessUnitTransferInput>;

const locationName = z.preprocess(cell, z.string({ error: REQUIRED }).max(200, "At most 200 characters"));

/** POST /api/sales/inventory/location-transfer: names of the unit's locations, or 'Base'. */
export const LocationTransferInput = z.object({
  inventory_id: requiredId(REQUIRED),
  fromLocation: locationName,
  toLocation: locationName,
  quantity: moveQuantity,
});
export type LocationTransferInput = z.infer<typeof LocationTransferInput>;

const cellText = z.preprocess(
  (v) => (typeof v === "number" ? String(v) : cell(v) ?? null),
  z.string({ error: "Must be text" }).max(200, "At most 200 characters").nullable(),
);

/**
 * One row of the inventory batch upload, cell by cell: blank cells are null. The item's type limits
 * quantity and decides whether a serial number is needed; that, the names and the business unit
 * are checked against the database.
 */
export const InventoryBatchRow = z.object({
  serial_number: cellText,
  item_number: cellText.refine((v) => v !== null, REQUIRED),
  status: z.preprocess(statusValue, z.enum(INVENTORY_STATUSES, { error: STATUS_MESSAGE }).nullable()),
  quantity: z.preprocess(
    (v) => (v === undefined ? null : numberish(v)),
    quantity().nullable(),
  ),
  category: cellText,
  location: cellText,
  purchase_date: z.preprocess(
    (v) => (v === undefined ? null : cell(v)),
    z.string({ error: DATE_MESSAGE }).refine(isIsoDate, DATE_MESSAGE).nullable(),
  ),
  purchase_price: z.preprocess(
    (v) => (v === undefined ? null : numberish(v)),
    boundedMoney({ min: 0, label: "Purchase Price" }).nullable(),
  ),
  manufacturer: cellText,
  business_unit_id: z.preprocess(
    numberish,
    z.number({ error: BUSINESS_UNIT_REQUIRED }).int(UNKNOWN_BUSINESS_UNIT).positive(UNKNOWN_BUSINESS_UNIT)
      .max(MAX_ID, UNKNOWN_BUSINESS_UNIT),
  ),
});
export type InventoryBatchRow = z.infer<typeof InventoryBatchRow>;

/**
 * What a batch row's Quantity does to stock already held (same item, business unit and serial number):
 * the form says it above the grid, docs/api.md beside the route.
 */
export const BATCH_QUANTITY_RULE =
  "Quantity sets the count: a row whose item, serial number and business unit are already in stock gets " +
  "the Quantity as its new count (100 in stock and a row of 20 make 20, not 120). Any other row is added " +
  "as new stock. Check the counts before and after, then Save.";

/** One row of POST /api/sales/inventory/batch/preview (n: the row as sent, 1-based). */
export interface InventoryBatchPreviewRow {
  n: number;
  item_number: string;
  serial_number: string;
  /** the stored count, null when the row is new stock */
  before: number | null;
  after: number;
}

export interface InventoryBatchPreview {
  rows: InventoryBatchPreviewRow[];
  created: number;
  updated: number;
  message: string;
}

/** A pasted row counts only when one of the batch columns holds something. */
export function isBlankBatchRow(row: unknown): boolean {
  if (!row || typeof row !== "object") return false;
  const r = row as Record<string, unknown>;
  return INVENTORY_BATCH_COLUMNS.every((c) => r[c] === undefined || r[c] === null || cell(r[c]) === null);
}

export interface ItemRef {
  id: number;
  item_number: string;
  item_description: string;
  rate: number | null;
  isTaxable: boolean;
  isExpendable: boolean;
  inventory_type: string;
}

export interface LocationQuantity {
  name: string;
  quantity: number;
}

/** An inventory row as the API answers it. */
export interface InventoryOut {
  id: number;
  /** the row's version: its ETag (decision 038); holds and check-ins leave it */
  version: number;
  company_id: number;
  item_id: number;
  business_unit_id: number;
  serial_number: string;
  inventory_description: string;
  category_id: number | null;
  status: string;
  quantity: number;
  quantity_out: number;
  quantity_out_location: number;
  quantity_available: number;
  /** from the quantities and the stored status (calculatedStatus) */
  calculated_inventory_status: InventoryStatus;
  /** in Repair by the return gate until an inspection of its serial passes */
  held_for_inspection: boolean;
  hidden: boolean;
  purchase_date: string | null;
  purchase_price: number | null;
  manufacturer: string;
  location: string;
  minimum_rate: number | null;
  additional_day: number | null;
  custom: Record<string, unknown>;
  updated_by_id: number | null;
  created_at: string;
  updated_at: string;
  item: ItemRef;
  business_unit: { id: number; name: string; locations: string[] };
  category: { id: number; name: string } | null;
  /** quantities at named locations, non-zero, by name */
  locations: LocationQuantity[];
  updated_by: { id: number; name: string } | null;
}

export interface InventoryTotals {
  quantity: number;
  quantity_out: number;
  quantity_out_location: number;
  quantity_available: number;
}

export interface InventoryList {
  results: InventoryOut[];
  total: number;
  /** over every row the filters match, not only the page */
  totals: InventoryTotals;
}

/** A row of the location view: one inventory row at one location ('Base' included). */
export interface InventoryLocationOut {
  /** `<inventory_id>:<location>` */
  key: string;
  inventory_id: number;
  serial_number: string;
  inventory_description: string;
  status: string;
  /** the inventory row's, from its quantities (calculatedStatus) */
  calculated_inventory_status: InventoryStatus;
  held_for_inspection: boolean;
  hidden: boolean;
  item: ItemRef;
  business_unit: { id: number; name: string; locations: string[] };
  location: string;
  quantity: number;
}
