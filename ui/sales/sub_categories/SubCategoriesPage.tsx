import { Island } from "../../lib/island.tsx";
import SubCategoriesTable from "./islands/SubCategoriesTable.tsx";
import type { SubCategoriesProps } from "./types.ts";

/** The sub product lines page: heading, then the table island with the first page of data. */
export function SubCategoriesPage(props: SubCategoriesProps) {
  return (
    <section className="page">
      <div className="page-head">
        <h1>Sub Product Lines</h1>
      </div>
      <Island
        src="ui/sales/sub_categories/islands/SubCategoriesTable.tsx"
        component={SubCategoriesTable}
        props={props}
      />
    </section>
  );
}
