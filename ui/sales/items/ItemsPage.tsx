import { Island } from "../../lib/island.tsx";
import ItemsTable from "./islands/ItemsTable.tsx";
import type { ItemsProps } from "./types.ts";

/** The item catalogue: heading, then the table island with the first page of data. */
export function ItemsPage(props: ItemsProps) {
  return (
    <section className="page">
      <div className="page-head">
        <h1>Items</h1>
      </div>
      <Island src="ui/sales/items/islands/ItemsTable.tsx" component={ItemsTable} props={props} />
    </section>
  );
}
