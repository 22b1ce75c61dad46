import { Island } from "../../lib/island.tsx";
import { CompanyLogo } from "../../shell/CompanyLogo.tsx";
import JobsTable from "./islands/JobsTable.tsx";
import type { JobsProps } from "./types.ts";

/** The jobs page: the company logo at its settings' height, then the island (greeting, searches, table). */
export function JobsPage({ settings, ...props }: JobsProps & { settings: Record<string, unknown> }) {
  return (
    <section className="page">
      <div className="page-logo">
        <CompanyLogo settings={settings} name={props.company.name} fit={200} />
      </div>
      <Island src="ui/pt/jobs/islands/JobsTable.tsx" component={JobsTable} props={props} />
    </section>
  );
}
