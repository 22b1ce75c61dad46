import type { TaxOut } from "../../../api/sales/taxes/schemas.ts";
import type { TaxSearch } from "../../../api/sales/taxes/rules.ts";

export type TaxRow = TaxOut;

export interface TaxesQuery extends TaxSearch {
  page: number;
  rowsPerPage: number;
  sortBy: string;
  descending: boolean;
}

export interface TaxesProps {
  data: { results: TaxRow[]; total: number };
  query: TaxesQuery;
  /** sales-admin: Edit and Delete in the expanded row */
  can: { edit: boolean };
}

/** The page sizes the list offers (the table's choice, and what the page accepts from its URL). */
export const TAX_PAGE_SIZES = [20, 40, 60, -1] as const;
