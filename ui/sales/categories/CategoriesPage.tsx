import { Island } from "../../lib/island.tsx";
import CategoriesTable from "./islands/CategoriesTable.tsx";
import type { CategoriesProps } from "./types.ts";

/** A category page (inventory or item categories, business units, product lines): heading and table. */
export function CategoriesPage(props: CategoriesProps) {
  return (
    <section className="page">
      <div className="page-head">
        <h1>{props.page.title}</h1>
      </div>
      <Island
        src="ui/sales/categories/islands/CategoriesTable.tsx"
        component={CategoriesTable}
        props={props}
      />
    </section>
  );
}
