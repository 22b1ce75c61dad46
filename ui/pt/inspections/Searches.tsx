import type { ReactNode } from "react";
import { type FilterField, FilterFields } from "../../components/FilterFields.tsx";
import type { SearchKey } from "./types.ts";

const FIELDS: (FilterField<SearchKey> & { data?: true; customer?: true })[] = [
  { key: "search_serial_number", label: "Serial Number" },
  { key: "search_batch", label: "Batch" },
  { key: "search_operator_name", label: "Operator", data: true },
  { key: "search_job_number", label: "Job Number", data: true },
  { key: "job_date", label: "Job Date", date: true, data: true },
  { key: "search_customer_name", label: "Customer", data: true, customer: true },
];

/** The inspection table's searches: Serial Number and Batch; on the data view also job and companies. */
export function Searches({ view, list, searchCustomer, children }: {
  view: "job" | "data";
  list: Parameters<typeof FilterFields>[0]["list"];
  searchCustomer: boolean;
  /** buttons at the toolbar's end */
  children?: ReactNode;
}) {
  const fields = FIELDS.filter((f) => (!f.data || view === "data") && (!f.customer || searchCustomer));
  return (
    <div className="toolbar inspection-searches">
      <FilterFields list={list} fields={fields} dateDebounceMs={700} />
      {children && (
        <>
          <span className="spacer" />
          {children}
        </>
      )}
    </div>
  );
}
