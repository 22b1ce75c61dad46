import type { CurrentUser } from "../../../api/lib/context.ts";
import { Island } from "../../lib/island.tsx";
import { CompanyLogo } from "../../shell/CompanyLogo.tsx";
import InspectionsTable from "./islands/InspectionsTable.tsx";
import type { InspectionsProps } from "./types.ts";

/** /pt/inspection: the company logo, then the job's inspection table island with its first page. */
export function InspectionPage({ user, ...props }: InspectionsProps & { user: CurrentUser }) {
  return (
    <section className="page">
      <div className="page-logo">
        <CompanyLogo settings={user.company.settings} name={user.company.name} fit={75} />
      </div>
      <Island
        src="ui/pt/inspections/islands/InspectionsTable.tsx"
        component={InspectionsTable}
        props={props}
      />
    </section>
  );
}
