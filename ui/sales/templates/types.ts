import type { TemplateOut } from "../../../api/sales/templates/schemas.ts";

export type TemplateRow = TemplateOut;

/** A business unit as the pickers hold it. */
export interface UnitOption {
  id: number;
  name: string;
}

/** The table's URL state: the API's list query, as the island sends it back. */
export interface TemplatesQuery {
  page: number;
  rowsPerPage: number;
  sortBy: string;
  descending: boolean;
  /** the chosen business unit's id: templates are listed only with one chosen (spec) */
  search_business_unit?: number;
  search_name?: string;
}

export interface TemplatesProps {
  data: { results: TemplateRow[]; total: number };
  query: TemplatesQuery;
  /** the unit of `search_business_unit`, named */
  unit: UnitOption | null;
  /** sales-admin: New, and Edit and Delete in the expanded row */
  can: { edit: boolean };
}

/** The page sizes the list offers (the table's choice, and what the page accepts from its URL). */
export const TEMPLATE_PAGE_SIZES = [20, 40, 60, -1] as const;
