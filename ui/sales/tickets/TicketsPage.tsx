import { Island } from "../../lib/island.tsx";
import { CompanyLogo } from "../../shell/CompanyLogo.tsx";
import TicketsTable from "./islands/TicketsTable.tsx";
import type { TicketsProps } from "./types.ts";

/** A stage list: heading (the invoices list with the company logo), then the table island. */
export function TicketsPage(
  props: TicketsProps & { company: { name: string; settings: Record<string, unknown> } },
) {
  const { company, ...table } = props;
  return (
    <section className="page">
      <div className="page-head">
        {props.list.logo && <CompanyLogo settings={company.settings} name={company.name} fit={75} />}
        <h1>{props.list.title}</h1>
      </div>
      <Island src="ui/sales/tickets/islands/TicketsTable.tsx" component={TicketsTable} props={table} />
    </section>
  );
}
