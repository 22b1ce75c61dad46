import type {
  InventoryLocationOut,
  InventoryOut,
  InventoryTotals,
} from "../../../api/sales/inventory/schemas.ts";
import type { InventoryType } from "../../../lib/enums.ts";

export type InventoryRow = InventoryOut;
export type LocationRow = InventoryLocationOut;
export type { InventoryTotals };

/** The three inventory pages: one page component and island, told apart by inventory type. */
export const INVENTORY_PAGES = [
  { path: "/sales/serialized-inventory", type: "Serialized", title: "Serialized Inventory" },
  { path: "/sales/itemized-inventory", type: "Itemized", title: "Itemized Inventory" },
  { path: "/sales/charge-codes", type: "Charge Code", title: "Charge Codes" },
] as const satisfies readonly { path: string; type: InventoryType; title: string }[];
export type InventoryPageDef = (typeof INVENTORY_PAGES)[number];

export type SearchKey =
  | "search_serial_number"
  | "search_inventory_description"
  | "search_item_description"
  | "search_item_number";

/** The spec's four filters, in order, with their labels. */
export const SEARCHES: readonly { key: SearchKey; label: string }[] = [
  { key: "search_serial_number", label: "Serial Number" },
  { key: "search_inventory_description", label: "Inv. Description" },
  { key: "search_item_description", label: "Item" },
  { key: "search_item_number", label: "Item Number" },
];

/**
 * The table's URL state, sent to the API as is: `inventory_type` is fixed by the page (the API
 * needs it; the page route ignores it in the URL) and `view` picks the endpoint.
 */
export interface InventoryQuery {
  page: number;
  rowsPerPage: number;
  sortBy?: string;
  descending?: boolean;
  inventory_type: InventoryType;
  /** absent: one row per serial number */
  view?: "location";
  /** absent: hidden rows are left out */
  include_hidden?: true;
  search_serial_number?: string;
  search_inventory_description?: string;
  search_item_description?: string;
  search_item_number?: string;
}

/** A page of either view: the serial view also carries the Totals over every matching row. */
export interface InventoryData {
  results: (InventoryRow | LocationRow)[];
  total: number;
  totals?: InventoryTotals;
}

export interface InventoryProps {
  page: InventoryPageDef;
  data: InventoryData;
  query: InventoryQuery;
  /** sales-admin: New, Batch Upload, row expansion and the row actions */
  can: { edit: boolean };
}

export const isLocationRow = (r: InventoryRow | LocationRow): r is LocationRow => "inventory_id" in r;

/** The page sizes the list offers (the table's choice, and what the page accepts from its URL). */
export const INVENTORY_PAGE_SIZES = [20, 40, 60, -1] as const;
