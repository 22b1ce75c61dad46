import type { TaxOut, TaxSearch } from "../../../api/sales/taxes/schemas.ts";

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
