import type { DataColumn } from "../../components/DataTable.tsx";
import { Icon } from "../../components/icons.tsx";
import { formatDate, formatPressure, formatUt } from "../../../lib/format.ts";
import type { InspectionRow } from "./types.ts";
import { SerialLink } from "../../components/SerialLink.tsx";

const yesNo = (v: boolean | null) => (v === null ? "" : v ? "Yes" : "No");

/** The pressure-test PDF in a new tab; shown disabled (no href) when the row has none. */
export function PtLink({ row }: { row: InspectionRow }) {
  const href = row.custom?.pressure_test_pdf;
  if (typeof href !== "string" || !href) {
    return <a className="link-disabled" role="link" aria-disabled="true">PDF</a>;
  }
  return <a href={href} target="_blank" rel="noopener">PDF</a>;
}

function BandColor({ color }: { color: string | null }) {
  if (!color) return null;
  return (
    <span className="band-color">
      <span className="band-swatch" style={{ background: color.toLowerCase() }} aria-hidden="true" />
      {color}
    </span>
  );
}

/** The spec's columns, in order; ids that the API can sort by are the sortable ones. */
export const COLUMNS: DataColumn<InspectionRow>[] = [
  {
    id: "date",
    header: "Date",
    essential: true,
    cell: (r) => <span className="nowrap">{formatDate(r.date)}</span>,
  },
  {
    id: "serial_number",
    header: "Serial Number",
    essential: true,
    cell: (r) => <SerialLink serial={r.serial_number} />,
  },
  { id: "batch", header: "Batch", cell: (r) => r.batch },
  { id: "part_name", header: "Part Name", cell: (r) => r.part?.name ?? "" },
  {
    id: "part_description",
    header: "Part Desc.",
    sortable: false,
    cell: (r) => (
      <span className="cell-clip" title={r.part?.description ?? ""}>{r.part?.description ?? ""}</span>
    ),
  },
  { id: "pt", header: "PT", sortable: false, cell: (r) => <PtLink row={r} /> },
  { id: "visual_pass", header: "Pass Visual?", sortable: false, cell: (r) => yesNo(r.visual_pass) },
  { id: "ut_1", header: "UT 1", sortable: false, cell: (r) => formatUt(r.ut_1) },
  { id: "ut_2", header: "UT 2", sortable: false, cell: (r) => formatUt(r.ut_2) },
  { id: "ut_3", header: "UT 3", sortable: false, cell: (r) => formatUt(r.ut_3) },
  { id: "pressure", header: "Pressure", sortable: false, cell: (r) => formatPressure(r.pressure) },
  { id: "band_color", header: "Band Color", cell: (r) => <BandColor color={r.band_color} /> },
  { id: "mpi_result", header: "MPI Result", cell: (r) => r.mpi_result ?? "" },
  {
    id: "notes",
    header: "Notes",
    sortable: false,
    cell: (r) => <span className="cell-clip" title={r.notes}>{r.notes}</span>,
  },
  { id: "operator", header: "Operator", sortable: false, cell: (r) => r.operator_company.name },
  { id: "customer", header: "Customer", sortable: false, cell: (r) => r.customer_company.name },
  {
    id: "report",
    header: "Report",
    sortable: false,
    essential: true,
    cell: (r) => (
      <a
        className="icon-btn icon-link"
        href={`/api/pt/inspections/${r.id}/report`}
        target="_blank"
        rel="noopener"
        aria-label="Inspection Report PDF"
        title="Inspection Report PDF"
      >
        <Icon name="pdf" />
      </a>
    ),
  },
];
