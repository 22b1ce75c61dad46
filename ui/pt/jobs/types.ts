import type { JobRow } from "../../../api/pt/jobs/schemas.ts";

export type { JobRow };

/** The jobs table's URL state (the spec's pagination object for jobs). */
export interface JobsQuery {
  page: number;
  rowsPerPage: number;
  sortBy: string;
  descending: boolean;
  search_operator_name?: string;
  search_job_number?: string;
  /** Only for users of an inspection company (the only ones who see the Customer search). */
  search_customer_name?: string;
}

export interface JobsGrants {
  /** New Job: inspection-company staff who are not Data-Entry (the server enforces the same). */
  create: boolean;
  /** job-admin of an inspection company: Edit and Delete in the expanded row */
  edit: boolean;
  /** The Customer search: only for users of an inspection company. */
  searchCustomer: boolean;
}

export interface JobsProps {
  /** the signed-in user's name, for the greeting */
  name: string;
  /** the user's own (inspection) company: the new job's inspection company, shown read-only */
  company: { id: number; name: string };
  data: { results: JobRow[]; total: number };
  query: JobsQuery;
  can: JobsGrants;
}

/** The page sizes the list offers (the table's choice, and what the page accepts from its URL). */
export const JOB_PAGE_SIZES = [10, 25, 50, -1] as const;
