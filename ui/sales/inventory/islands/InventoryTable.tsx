import { useMemo, useState } from "react";
import type { DataColumn } from "../../../components/DataTable.tsx";
import { ListTable } from "../../../components/ListTable.tsx";
import { FilterFields } from "../../../components/FilterFields.tsx";
import { Icon } from "../../../components/icons.tsx";
import { DownloadButton, NewButton, RefreshButton } from "../../../components/ListButtons.tsx";
import { useCrudList, versionOf } from "../../../components/crud_list.ts";
import { CrudDialogs } from "../../../components/CrudDialogs.tsx";
import { Checkbox } from "../../../primitives/Checkbox.tsx";
import { api } from "../../../lib/api.ts";
import { INVENTORY_PAGE_SIZES } from "../types.ts";
import {
  inventoryColumns,
  LOCATION_COLUMNS,
  LocationsTable,
  type RowAction,
  RowMenu,
  totalsFooter,
  ViewToggle,
} from "../columns.tsx";
import {
  type InventoryData,
  type InventoryProps,
  type InventoryQuery,
  type InventoryRow,
  isLocationRow,
  type LocationRow,
  SEARCHES,
} from "../types.ts";
import { lazyDialog } from "../../../lib/lazy_dialog.tsx";
import { PrintLabels, useLabelSelection } from "../PrintLabels.tsx";

// Loaded when first opened (decision 022).
const InventoryBatch = lazyDialog(() => import("../InventoryBatch.tsx").then((m) => m.InventoryBatch));
const LocationsDialog = lazyDialog(() => import("../LocationsDialog.tsx").then((m) => m.LocationsDialog));
const UnitTransferDialog = lazyDialog(() =>
  import("../UnitTransferDialog.tsx").then((m) => m.UnitTransferDialog)
);
const InventoryForm = lazyDialog(() => import("../InventoryForm.tsx").then((m) => m.InventoryForm));

type Row = InventoryRow | LocationRow;

/**
 * One inventory type's table: the view switch, New, Batch Upload, Download and Refresh, four
 * searches (300 ms) and 'Include Hidden Inventory', paging, the Totals row (not for charge codes)
 * and, for sales-admin, the per-location expansion and the row actions with their dialogs.
 */
export default function InventoryTable(props: InventoryProps) {
  const { page, can } = props;
  // The view picks the endpoint; it changes together with the query's `view` (one render, one fetch).
  const [view, setView] = useState<"serial" | "location">(props.query.view ? "location" : "serial");
  const endpoint = view === "location" ? "/api/sales/inventory-locations" : "/api/sales/inventory";
  // The dialogs act on serial rows, deleted at the inventory's endpoint whichever view is listed.
  const crud = useCrudList<InventoryQuery, Row, InventoryRow>(
    { path: page.path, endpoint, query: props.query, data: props.data },
    (r) => api(`/api/sales/inventory/${r.id}`, { method: "DELETE", version: versionOf(r) }),
  );
  const { list, hydrated, setEditing, setDeleting, saved } = crud;
  const { query } = list;
  const data = list.data as InventoryData;
  const [transfer, setTransfer] = useState<{ kind: "unit" | "locations"; row: InventoryRow } | null>(null);
  const [batch, setBatch] = useState(false);
  // QR labels are for serial numbers: the Serialized page's serial view picks rows for them.
  const selection = useLabelSelection(hydrated);
  const labels = page.type === "Serialized" && view === "serial";

  const onAction = (action: RowAction, row: InventoryRow) => {
    if (action === "edit") setEditing(row);
    else if (action === "delete") setDeleting(row);
    else setTransfer({ kind: action, row });
  };
  // While a switch of view loads, the rows still on screen keep the columns they were fetched for.
  const shownView = data.results.length ? (isLocationRow(data.results[0]) ? "location" : "serial") : view;
  const columns = useMemo(
    () =>
      (shownView === "location" ? LOCATION_COLUMNS : inventoryColumns(
        page.type,
        can.edit
          ? (r) => <RowMenu row={r} type={page.type} hydrated={hydrated} onAction={onAction} />
          : undefined,
        labels ? selection : undefined,
      )) as DataColumn<Row>[],
    // onAction only sets state: its identity does not matter.
    [shownView, page.type, can.edit, hydrated, labels, selection.selected],
  );
  const expand = can.edit && shownView === "serial"
    ? (r: Row) => (
      <div className="row-details row-details-sticky">
        <LocationsTable row={r as InventoryRow} label={`Locations of ${(r as InventoryRow).serial_number}`} />
      </div>
    )
    : undefined;
  const footer = shownView === "serial" && page.type !== "Charge Code" && data.totals
    ? totalsFooter(data.totals)
    : undefined;

  const switchView = (v: "serial" | "location") => ({
    view: v === "location" ? "location" as const : undefined,
    page: 1,
    sortBy: undefined,
    descending: undefined,
  });
  return (
    <>
      <div className="page-head">
        <h1>{page.title}</h1>
        <RefreshButton crud={crud} />
      </div>
      <div className="toolbar">
        <ViewToggle
          view={view}
          href={(v) => list.href(switchView(v))}
          onChange={(v) => {
            setView(v);
            list.update(switchView(v));
          }}
        />
        <span className="spacer" />
        {labels && shownView === "serial" && (
          <PrintLabels selection={selection} rows={data.results as InventoryRow[]} />
        )}
        <DownloadButton crud={crud} endpoint={endpoint} />
        {can.edit && (
          <>
            <button type="button" className="btn" onClick={() => setBatch(true)} disabled={!hydrated}>
              <Icon name="upload" size={20} />Batch Upload
            </button>
            <NewButton crud={crud} preload={InventoryForm.preload} />
          </>
        )}
      </div>
      <div className="toolbar inspection-searches">
        {/* The inventory type is the page's: its URL does not carry it. */}
        <FilterFields list={list} fields={SEARCHES} omit={["inventory_type"]} textDebounceMs={300} />
        <Checkbox
          isSelected={!!query.include_hidden}
          isDisabled={!hydrated}
          onChange={(on) => list.update({ include_hidden: on ? true : undefined, page: 1 })}
        >
          Include Hidden Inventory
        </Checkbox>
      </div>
      <div className="inventory-table">
        <ListTable
          list={list}
          sizes={INVENTORY_PAGE_SIZES}
          label={page.title}
          columns={columns}
          rowId={(r) => (isLocationRow(r) ? r.key : String(r.id))}
          renderExpanded={expand}
          emptyText="No Data Found"
          loadingText="Downloading Inventory Data..."
          hydrated={hydrated}
          footer={footer}
        />
      </div>
      <CrudDialogs
        crud={crud}
        form={(row, dialog) => <InventoryForm row={row} type={page.type} {...dialog} />}
        question="Are you sure you want to delete this item?"
      />
      {transfer?.kind === "unit" && (
        <UnitTransferDialog
          row={transfer.row}
          onClose={() => setTransfer(null)}
          onSaved={(message) => {
            setTransfer(null);
            saved(message);
          }}
        />
      )}
      {transfer?.kind === "locations" && (
        <LocationsDialog
          row={transfer.row}
          onClose={() => setTransfer(null)}
          onChanged={list.refetch}
        />
      )}
      {batch && (
        <InventoryBatch
          onClose={() => setBatch(false)}
          onSaved={(message) => {
            setBatch(false);
            saved(message);
          }}
        />
      )}
    </>
  );
}
