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
