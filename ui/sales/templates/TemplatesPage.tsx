import { Island } from "../../lib/island.tsx";
import TemplatesTable from "./islands/TemplatesTable.tsx";
import type { TemplatesProps } from "./types.ts";

/** Templates: heading, then the island with the business unit choice and that unit's templates. */
export function TemplatesPage(props: TemplatesProps) {
  return (
    <section className="page">
      <div className="page-head">
        <h1>Templates</h1>
      </div>
      <Island src="ui/sales/templates/islands/TemplatesTable.tsx" component={TemplatesTable} props={props} />
    </section>
  );
}
