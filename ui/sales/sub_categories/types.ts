import type { SubCategoryOut } from "../../../api/sales/sub_categories/schemas.ts";

export type SubCategoryRow = SubCategoryOut;

export interface SubCategoriesQuery {
  page: number;
  rowsPerPage: number;
  sortBy: string;
  descending: boolean;
  search_name?: string;
}

export interface SubCategoriesProps {
  data: { results: SubCategoryRow[]; total: number };
  query: SubCategoriesQuery;
  /** sales-admin: Edit and Delete in the expanded row */
  can: { edit: boolean };
}

/** The page sizes the list offers (the table's choice, and what the page accepts from its URL). */
export const SUB_CATEGORY_PAGE_SIZES = [20, 40, 60, -1] as const;
