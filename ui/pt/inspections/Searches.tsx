import { type ReactNode, useEffect, useRef, useState } from "react";
import { SearchBox } from "../../components/SearchBox.tsx";
import { TextField } from "../../primitives/TextField.tsx";
import { useDebounced } from "../../lib/hooks.ts";
import { isIsoDate } from "../../../api/pt/inspections/schemas.ts";
import type { InspectionsQuery, SearchKey } from "./types.ts";

type Keep = Record<string, string | number | boolean | undefined>;

/**
 * The job date search: a date input in a GET form (Enter works before hydration). Applied on Enter,
 * on leaving the field, and once a complete date has settled (a date picked from the calendar).
 */
function DateSearch({ label, name, value, keep, onApply }: {
  label: string;
  name: string;
  value: string;
  keep: Keep;
  onApply: (v: string) => void;
}) {
  const [text, setText] = useState(value);
  const applied = useRef(value);
  const apply = (t: string) => {
    if (t === applied.current || (t !== "" && !isIsoDate(t))) return;
    applied.current = t;
    onApply(t);
  };
  const applyRef = useRef(apply);
  applyRef.current = apply;
  const settled = useDebounced(text, 700);
  useEffect(() => {
    // Typing a year passes through 0002, 0020, 0202: only a plausible year applies by itself.
    if (settled === "" || /^(19|20)\d\d-/.test(settled)) applyRef.current(settled);
  }, [settled]);
  return (
    <form
      method="get"
      role="search"
      className="search-box date-search"
      onSubmit={(e) => {
        e.preventDefault();
        apply(text);
      }}
    >
      {Object.entries(keep).map(([k, v]) =>
        v === undefined || v === "" ? null : <input key={k} type="hidden" name={k} value={String(v)} />
      )}
      <TextField
        label={label}
        name={name}
        type="date"
        value={text}
        onChange={setText}
        onBlur={() => apply(text)}
      />
    </form>
  );
}

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
