import { Island } from "../../lib/island.tsx";
import AuditTable from "./islands/AuditTable.tsx";
import type { AuditProps } from "./types.ts";

/** The inventory audit log: heading, then the table island with the first page of the log. */
export function AuditPage(props: AuditProps) {
  return (
    <section className="page">
      <div className="page-head">
        <h1>Inventory Audit</h1>
      </div>
      <Island src="ui/sales/audit/islands/AuditTable.tsx" component={AuditTable} props={props} />
    </section>
  );
}
