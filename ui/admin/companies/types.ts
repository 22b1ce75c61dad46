import type { CompanyOut } from "../../../api/admin/companies/service.ts";

/** A company as the island shows it: the API's answer less its user list (not shown, can be long). */
export type CompanyRow = Omit<CompanyOut, "users">;

export interface CompaniesQuery {
  page: number;
  rowsPerPage: number;
  sortBy: string;
  descending: boolean;
  search_name?: string;
  type?: string;
}

export interface CompaniesGrants {
  edit: boolean;
  delete: boolean;
  settings: boolean;
}

export interface CompaniesProps {
  data: { results: CompanyRow[]; total: number };
  query: CompaniesQuery;
  can: CompaniesGrants;
}

/** The page sizes the list offers (the table's choice, and what the page accepts from its URL). */
export const COMPANY_PAGE_SIZES = [10, 25, 50, -1] as const;
