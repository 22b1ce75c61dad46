import { Island } from "../../lib/island.tsx";
import InventoryTable from "./islands/InventoryTable.tsx";
import type { InventoryProps } from "./types.ts";

/** An inventory page (/sales/serialized-inventory and the other two): the table island with its first page. */
export function InventoryPage(props: InventoryProps) {
  return (
    <section className="page">
      <Island src="ui/sales/inventory/islands/InventoryTable.tsx" component={InventoryTable} props={props} />
    </section>
  );
}
