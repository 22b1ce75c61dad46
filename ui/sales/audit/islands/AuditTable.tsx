import { useMemo } from "react";
import type { DataColumn } from "../../../components/DataTable.tsx";
import { ListTable } from "../../../components/ListTable.tsx";
import { DownloadButton } from "../../../components/ListButtons.tsx";
import { useCrudList } from "../../../components/crud_list.ts";
import { DateTime } from "../../../lib/time_zone.tsx";
import { AUDIT_PAGE_SIZES } from "../types.ts";
import { FilterFields } from "../../../components/FilterFields.tsx";
import {
  type AuditFilterKey,
  type AuditProps,
  type AuditQuery,
  type AuditRow,
  quantityText,
} from "../types.ts";

const ENDPOINT = "/api/sales/audit/inventory-rows";
const clip = (text: string) => <span className="cell-clip" title={text}>{text}</span>;

const FILTERS: { key: AuditFilterKey; label: string; date?: true }[] = [
  { key: "serial_number", label: "Serial Number" },
  { key: "item_number", label: "Item Number" },
  { key: "ticket_number", label: "Ticket Number" },
  { key: "invoice_number", label: "Invoice Number" },
  { key: "customer_name", label: "Customer" },
  { key: "sales_rep_name", label: "Sales Rep" },
  { key: "start_date_begin", label: "Start Date Begin", date: true },
  { key: "start_date_end", label: "Start Date End", date: true },
];

/** The spec's columns. Action times are on the company's clock, in the server's HTML too (decision 015). */
function columns(): DataColumn<AuditRow>[] {
  return [
    {
      id: "action_time",
      header: "Action Time",
      essential: true,
      cell: (r) => <DateTime value={r.action_time} />,
    },
    { id: "action", header: "Action", essential: true, cell: (r) => r.action },
    { id: "updated_by", header: "Updated By", cell: (r) => r.updated_by.name },
    { id: "serial_number", header: "Serial Number", essential: true, cell: (r) => r.serial_number },
    {
      id: "item_number",
      header: "Item",
      cell: (r) => clip([r.item.item_number, r.item.item_description].filter(Boolean).join(" - ")),
    },
    { id: "status", header: "Status", cell: (r) => r.status },
    { id: "quantity", header: "Quantity", cell: (r) => quantityText(r.quantity, r.quantity_change) },
    { id: "category", header: "Category", sortable: false, cell: (r) => r.category },
    { id: "business_unit", header: "Business Unit", cell: (r) => r.business_unit },
    { id: "locations", header: "Locations", sortable: false, cell: (r) => clip(r.locations) },
    {
      id: "calculated_inventory_status",
      header: "Calculated Inventory Status",
      sortable: false,
      cell: (r) => r.calculated_inventory_status,
    },
  ];
}

/** The inventory audit log: eight filters (300 ms), download, sort and paging, all in the URL. */
export default function AuditTable(props: AuditProps) {
  // A read-only list: the scaffold's list and hydration, no row dialogs.
  const crud = useCrudList<AuditQuery, AuditRow>({
    path: "/sales/inventory-audit",
    endpoint: ENDPOINT,
    query: props.query,
    data: props.data,
  });
  const { list, hydrated } = crud;
  const cols = useMemo(columns, []);

  return (
    <>
      <div className="toolbar inspection-searches">
        <FilterFields
          fields={FILTERS}
          list={list}
          textDebounceMs={300}
        />
        <span className="spacer" />
        <DownloadButton crud={crud} endpoint={ENDPOINT} />
      </div>
      <ListTable
        list={list}
        sizes={AUDIT_PAGE_SIZES}
        label="Inventory Audit"
        columns={cols}
        rowId={(r) => String(r.id)}
        emptyText="No Data Found"
        loadingText="Downloading Audit Data..."
        hydrated={hydrated}
      />
    </>
  );
}
