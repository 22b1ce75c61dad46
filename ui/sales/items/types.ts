import type { ItemOut } from "../../../api/sales/items/schemas.ts";

export type ItemRow = ItemOut;

export type SearchKey = "search_item_number" | "search_item_description";

export interface ItemsQuery {
  page: number;
  rowsPerPage: number;
  sortBy: string;
  descending: boolean;
  search_item_number?: string;
  search_item_description?: string;
}

export interface ItemsGrants {
  /** sales-admin: New, Batch Upload, and Edit, View Sales and Delete in the expanded row */
  edit: boolean;
}

export interface ItemsProps {
  data: { results: ItemRow[]; total: number };
  query: ItemsQuery;
  can: ItemsGrants;
}

/** The page sizes the list offers (the table's choice, and what the page accepts from its URL). */
export const ITEM_PAGE_SIZES = [20, 40, 60, -1] as const;
