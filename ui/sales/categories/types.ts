import type { CategoryModel, CategoryOut } from "../../../api/sales/categories/schemas.ts";

export type CategoryRow = CategoryOut;

/** The four category pages: one page component and island, told apart by model. */
export const CATEGORY_PAGES = [
  { path: "/sales/inventory-categories", model: "Inventory Category", title: "Inventory Categories" },
  { path: "/sales/item-categories", model: "Item Category", title: "Item Categories" },
  { path: "/sales/business-units", model: "Business Unit", title: "Business Units" },
  { path: "/sales/product-lines", model: "Product Line", title: "Product Lines" },
] as const satisfies readonly { path: string; model: CategoryModel; title: string }[];
export type CategoryPage = (typeof CATEGORY_PAGES)[number];

export interface CategoriesQuery {
  page: number;
  rowsPerPage: number;
  sortBy: string;
  descending: boolean;
  search_name?: string;
}

export interface CategoriesProps {
  page: CategoryPage;
  data: { results: CategoryRow[]; total: number };
  query: CategoriesQuery;
  /** sales-admin: Edit and Delete in the expanded row */
  can: { edit: boolean };
}

/** The page sizes the list offers (the table's choice, and what the page accepts from its URL). */
export const CATEGORY_PAGE_SIZES = [20, 40, 60, -1] as const;
