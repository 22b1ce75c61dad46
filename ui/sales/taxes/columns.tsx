import type { DataColumn } from "../../components/DataTable.tsx";
import type { TaxRow } from "./types.ts";

/** A percent rounded to 3 places (spec): 8.25 as '8.250%'; no rate, nothing. */
export function formatPercent(value: number | null | undefined): string {
  return value === null || value === undefined ? "" : `${value.toFixed(3)}%`;
}

const clip = (text: string) => <span className="cell-clip" title={text}>{text}</span>;

/** The spec's tax columns; the API sorts by name, state, county and city. */
export const COLUMNS: DataColumn<TaxRow>[] = [
  { id: "name", header: "Name", cell: (t) => t.name },
  { id: "state", header: "State", cell: (t) => t.state },
  { id: "county", header: "County", cell: (t) => t.county },
  { id: "city", header: "City", cell: (t) => t.city },
  { id: "state_rate", header: "State Rate", sortable: false, cell: (t) => formatPercent(t.state_rate) },
  { id: "county_rate", header: "County Rate", sortable: false, cell: (t) => formatPercent(t.county_rate) },
  { id: "city_rate", header: "City Rate", sortable: false, cell: (t) => formatPercent(t.city_rate) },
  { id: "rate", header: "Rate", sortable: false, cell: (t) => formatPercent(t.rate) },
  { id: "notes", header: "Notes", sortable: false, cell: (t) => clip(t.notes) },
];
