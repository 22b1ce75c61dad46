import type { ReactNode } from "react";
import { SearchBox } from "../../components/SearchBox.tsx";
import { DateSearch } from "../../components/DateSearch.tsx";
import type { InspectionsQuery, SearchKey } from "./types.ts";

type Keep = Record<string, string | number | boolean | undefined>;

const FIELDS: { key: SearchKey; label: string; data?: true; customer?: true }[] = [
  { key: "search_serial_number", label: "Serial Number" },
  { key: "search_batch", label: "Batch" },
  { key: "search_operator_name", label: "Operator", data: true },
  { key: "search_job_number", label: "Job Number", data: true },
  { key: "job_date", label: "Job Date", data: true },
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
  // Each GET form carries the rest of the table's state, so Enter without JavaScript keeps it.
  const keep = (own: SearchKey): Keep => {
    const { page: _page, [own]: _own, ...rest } = query;
    return rest;
  };
  return (
    <div className="toolbar inspection-searches">
      {fields.map((f) =>
        f.key === "job_date"
          ? (
            <DateSearch
              key={f.key}
              label={f.label}
              name={f.key}
              value={query.job_date ?? ""}
              keep={keep(f.key)}
              onApply={(v) => onApply(f.key, v || undefined)}
              debounceMs={700}
            />
          )
          : (
            <SearchBox
              key={f.key}
              label={f.label}
              name={f.key}
              value={query[f.key] ?? ""}
              keep={keep(f.key)}
              onApply={(v) => onApply(f.key, v || undefined)}
            />
          )
      )}
      {children && (
        <>
          <span className="spacer" />
          {children}
        </>
      )}
    </div>
  );
}
