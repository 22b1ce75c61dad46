import { Island } from "../../lib/island.tsx";
import TaxesTable from "./islands/TaxesTable.tsx";
import type { TaxesProps } from "./types.ts";

/** The taxes page: heading, then the table island with the first page of data. */
export function TaxesPage(props: TaxesProps) {
  return (
    <section className="page">
      <div className="page-head">
        <h1>Taxes</h1>
      </div>
      <p className="page-intro">
        Search by name, state, county or city, or type 'State | County | City' to search those fields.
      </p>
      <Island src="ui/sales/taxes/islands/TaxesTable.tsx" component={TaxesTable} props={props} />
    </section>
  );
}
