import type { InspectionOut } from "../../../api/pt/inspections/service/query.ts";

export type InspectionRow = InspectionOut;

/** The page sizes the API takes. */
const INSPECTION_PAGE_SIZES = [10, 25, 50, -1] as const;

/** The spec's sizes (10/25/50/All) plus its default of 5 rows. */
export const INSPECTION_TABLE_SIZES: readonly number[] = [5, ...INSPECTION_PAGE_SIZES];
export const DEFAULT_ROWS = 5;

/** The table's URL state: the API's list query, as the island sends it back. */
export interface InspectionsQuery {
  page: number;
  rowsPerPage: number;
  sortBy: string;
  descending: boolean;
  /** the job being edited (/pt/inspection); absent on the data view */
  job_id?: number;
  search_serial_number?: string;
  search_batch?: string;
  search_operator_name?: string;
  search_job_number?: string;
  search_customer_name?: string;
  /** YYYY-MM-DD */
  job_date?: string;
}

export type SearchKey =
  | "search_serial_number"
  | "search_batch"
  | "search_operator_name"
  | "search_job_number"
  | "search_customer_name"
  | "job_date";

/** The job header of /pt/inspection. */
export interface JobSummary {
  id: number;
  job_number: string;
  date: string;
  customer: string;
  operator: string;
}

export interface InspectionsGrants {
  /** inspector: 'Enter new inspection' and 'Enter new batch' (job view only) */
  enter: boolean;
  /** job-admin: Edit and Delete in the expanded row (job view only) */
  edit: boolean;
  /** inspector or job-admin: add photos and sign (job view only; `inspections.media`) */
  media: boolean;
  /** the Customer search (inspection-company users, data view only) */
  searchCustomer: boolean;
}

export interface InspectionsProps {
  view: "job" | "data";
  /** the signed-in user's name, for the greeting */
  name: string;
  /** the signed-in user: records queued offline are theirs */
  userId: number;
  job: JobSummary | null;
  data: { results: InspectionRow[]; total: number };
  query: InspectionsQuery;
  can: InspectionsGrants;
}
