import { Island } from "../../lib/island.tsx";
import PartsTable from "./islands/PartsTable.tsx";
import type { PartsProps } from "./types.ts";

/** The parts page: heading, then the table island with the first page of data. */
export function PartsPage(props: PartsProps) {
  return (
    <section className="page">
      <div className="page-head">
        <h1>Parts</h1>
      </div>
      <Island src="ui/pt/parts/islands/PartsTable.tsx" component={PartsTable} props={props} />
    </section>
  );
}
