import type { DataColumn } from "../../components/DataTable.tsx";
import type { TaxRow } from "./types.ts";
import { formatPercent } from "../../../lib/format.ts";

const clip = (text: string) => <span className="cell-clip" title={text}>{text}</span>;

/** The spec's tax columns; the API sorts by name, state, county and city. */
export const COLUMNS: DataColumn<TaxRow>[] = [
  { id: "name", header: "Name", essential: true, cell: (t) => t.name },
  { id: "state", header: "State", cell: (t) => t.state },
  { id: "county", header: "County", cell: (t) => t.county },
  { id: "city", header: "City", cell: (t) => t.city },
  { id: "state_rate", header: "State Rate", sortable: false, cell: (t) => formatPercent(t.state_rate) },
  { id: "county_rate", header: "County Rate", sortable: false, cell: (t) => formatPercent(t.county_rate) },
  { id: "city_rate", header: "City Rate", sortable: false, cell: (t) => formatPercent(t.city_rate) },
  { id: "rate", header: "Rate", sortable: false, essential: true, cell: (t) => formatPercent(t.rate) },
  { id: "notes", header: "Notes", sortable: false, cell: (t) => clip(t.notes) },
];
