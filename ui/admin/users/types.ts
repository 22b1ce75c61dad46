import type { CurrentUser } from "../../../api/lib/context.ts";

/** A user as the island shows it: the API's user with only the company's id and name. */
export type UserRow = Omit<CurrentUser, "company"> & {
  company: { id: number; name: string };
  /** Decision 038: sent back as If-Match by the edit form and the delete. */
  version?: number;
};

export interface UsersQuery {
  page: number;
  rowsPerPage: number;
  sortBy: string;
  descending: boolean;
  search_name?: string;
}

export interface UsersGrants {
  edit: boolean;
  delete: boolean;
  forceReset: boolean;
  superuser: boolean;
}

export interface UsersProps {
  data: { results: UserRow[]; total: number };
  query: UsersQuery;
  can: UsersGrants;
}

export function toUserRow(u: CurrentUser & { version?: number }): UserRow {
  return { ...u, company: { id: u.company.id, name: u.company.name } };
}

/** The page sizes the list offers (the table's choice, and what the page accepts from its URL). */
export const USER_PAGE_SIZES = [25, 50, 100] as const;
