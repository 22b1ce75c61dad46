import { Island } from "../../lib/island.tsx";
import SalesDataTable from "./islands/SalesDataTable.tsx";
import type { SalesProps } from "./types.ts";

/** Sales Data: heading, then the table island with the first page of lines. */
export function SalesDataPage(props: SalesProps) {
  return (
    <section className="page">
      <div className="page-head">
        <h1>Sales Data</h1>
      </div>
      <Island src="ui/sales/data/islands/SalesDataTable.tsx" component={SalesDataTable} props={props} />
    </section>
  );
}
