import type { PartOut } from "../../../api/pt/parts/schemas.ts";

export type PartRow = PartOut;

export interface PartsQuery {
  page: number;
  rowsPerPage: number;
  sortBy: string;
  descending: boolean;
  search_name?: string;
}

export interface PartsGrants {
  /** part-admin: Edit and Delete in the expanded row */
  edit: boolean;
}

export interface PartsProps {
  data: { results: PartRow[]; total: number };
  query: PartsQuery;
  can: PartsGrants;
}

/** The page sizes the list offers (the table's choice, and what the page accepts from its URL). */
export const PART_PAGE_SIZES = [10, 25, 50, -1] as const;
