import { Island } from "../../lib/island.tsx";
import CompaniesTable from "./islands/CompaniesTable.tsx";
import type { CompaniesProps } from "./types.ts";

/** The companies page: heading, then the table island with the first page of data. */
export function CompaniesPage(props: CompaniesProps) {
  return (
    <section className="page">
      <div className="page-head">
        <h1>Companies</h1>
      </div>
      <Island src="ui/admin/companies/islands/CompaniesTable.tsx" component={CompaniesTable} props={props} />
    </section>
  );
}
