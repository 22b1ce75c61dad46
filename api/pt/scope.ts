import { type AnyColumn, eq, type SQL, sql } from "drizzle-orm";
import type { CurrentUser } from "../lib/context.ts";
import { inJson } from "../../db/in_json.ts";

/** The columns a jobs or inspections query scopes by (inspections name the job `job_id`). */
export interface ScopeColumns {
  jobId: AnyColumn;
  inspectionCompanyId: AnyColumn;
  customerCompanyId: AnyColumn;
  operatorCompanyId: AnyColumn;
}

/**
 * Which jobs (and so inspections) a user sees, as a WHERE clause applied in the query, never after:
 * staff of an inspection company see their company's jobs (a Data-Entry user only the jobs assigned
 * to them); users of a customer or operator company see only the jobs where their company is the
 * customer or the operator.
 */
export function ptScope(user: CurrentUser, c: ScopeColumns): SQL {
  const company = user.company_id;
  switch (user.company.company_type) {
    case "inspection_company": {
      const own = eq(c.inspectionCompanyId, company);
      if (user.account_type !== "Data-Entry") return own;
      const ids = user.jobs.length ? inJson(c.jobId, user.jobs) : sql`0`;
      return sql`(${own} and ${ids})`;
    }
    case "customer_company":
      return eq(c.customerCompanyId, company);
    case "operator_company":
      return eq(c.operatorCompanyId, company);
  }
}
