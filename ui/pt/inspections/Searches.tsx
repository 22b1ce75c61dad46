import type { ReactNode } from "react";
import { type FilterField, FilterFields } from "../../components/FilterFields.tsx";
import type { InspectionsQuery, SearchKey } from "./types.ts";

const FIELDS: (FilterField<SearchKey> & { data?: true; customer?: true })[] = [
  { key: "search_serial_number", label: "Serial Number" },
  { key: "search_batch", label: "Batch" },
  { key: "search_operator_name", label: "Operator", data: true },
  { key: "search_job_number", label: "Job Number", data: true },
  { key: "job_date", label: "Job Date", date: true, data: true },
  { key: "search_customer_name", label: "Customer", data: true, customer: true },
];

/** The inspection table's searches: Serial Number and Batch; on the data view also job and companies. */
export function Searches({ view, query, searchCustomer, onApply, children }: {
  view: "job" | "data";
  query: InspectionsQuery;
  searchCustomer: boolean;
  onApply: (key: SearchKey, value: string | undefined) => void;
  /** buttons at the toolbar's end */
  children?: ReactNode;
}) {
  const fields = FIELDS.filter((f) => (!f.data || view === "data") && (!f.customer || searchCustomer));
  return (
    <div className="toolbar inspection-searches">
      <FilterFields fields={fields} query={query} onApply={onApply} dateDebounceMs={700} />
      {children && (
        <>
          <span className="spacer" />
          {children}
        </>
      )}
    </div>
  );
}
