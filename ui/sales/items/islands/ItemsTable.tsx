import { useState } from "react";
import type { DataColumn } from "../../../components/DataTable.tsx";
import { ListTable } from "../../../components/ListTable.tsx";
import { FilterFields } from "../../../components/FilterFields.tsx";
import { Icon } from "../../../components/icons.tsx";
import { EditDeleteActions } from "../../../components/RowActions.tsx";
import { DownloadButton, NewButton } from "../../../components/ListButtons.tsx";
import { useCrudList } from "../../../components/crud_list.ts";
import { CrudDialogs } from "../../../components/CrudDialogs.tsx";
import { unitPrice } from "../../../../lib/format.ts";
import { ITEM_BATCH_COLUMNS, ITEM_BATCH_LABELS } from "../../../../api/sales/items/rules.ts";
import { ITEM_PAGE_SIZES } from "../types.ts";
import { type ItemRow, type ItemsProps, type ItemsQuery, type SearchKey } from "../types.ts";
import { lazyDialog } from "../../../lib/lazy_dialog.tsx";
import { ITEM_BATCH_PREVIEW, ITEM_BATCH_RULE } from "../ItemBatchPreview.tsx";

// Loaded when first opened (decision 022).
const BatchUpload = lazyDialog(() =>
  import("../../../components/BatchUpload.tsx").then((m) => m.BatchUpload)
);
const ItemForm = lazyDialog(() => import("../ItemForm.tsx").then((m) => m.ItemForm));

const yesNo = (v: boolean) => (v ? "Yes" : "No");
const clip = (text: string) => <span className="cell-clip" title={text}>{text}</span>;

const COLUMNS: DataColumn<ItemRow>[] = [
  { id: "item_number", header: "Item Number", essential: true, cell: (i) => i.item_number },
  { id: "item_description", header: "Item", essential: true, cell: (i) => clip(i.item_description) },
  { id: "rate", header: "Rate", cell: (i) => unitPrice(i.rate) },
  { id: "units", header: "Units", cell: (i) => i.units, sortable: false },
  { id: "inventory_type", header: "Inventory Type", cell: (i) => i.inventory_type },
  { id: "item_type", header: "Item Type", cell: (i) => i.item_type },
  { id: "isTaxable", header: "Taxable", cell: (i) => yesNo(i.isTaxable), sortable: false },
  { id: "isExpendable", header: "Expendable", cell: (i) => yesNo(i.isExpendable), sortable: false },
  { id: "isService", header: "Service", cell: (i) => yesNo(i.isService), sortable: false },
  { id: "category", header: "Category", cell: (i) => i.category?.name ?? "", sortable: false },
];

const BATCH_COLUMNS = ITEM_BATCH_COLUMNS.map((key) => ({ key, label: ITEM_BATCH_LABELS[key] }));
/** Header texts understood besides the keys and labels: the download's ("" = ignored). */
const BATCH_ALIASES: Record<string, string> = {
  "Item Description": "item_description",
  "Type": "type",
  "Notes": "",
};

const SEARCHES: { key: SearchKey; label: string }[] = [
  { key: "search_item_number", label: "Item Number" },
  { key: "search_item_description", label: "Item" },
];

/** The items table: two searches (300 ms), download, paging, row actions, item and batch dialogs. */
export default function ItemsTable(props: ItemsProps) {
  const crud = useCrudList<
    ItemsQuery,
    ItemRow
  >({
    path: "/sales/items",
    endpoint: "/api/sales/items",
    query: props.query,
    data: props.data,
  });
  const { list, hydrated, setEditing, setDeleting, saved } = crud;
  const [batch, setBatch] = useState(false);

  const details = (i: ItemRow) => (
    <div className="row-details row-details-sticky">
      <dl>
        <dt>Item</dt>
        <dd>{i.item_description || "None"}</dd>
        <dt>Notes</dt>
        <dd className="pre-wrap">{i.notes || "None"}</dd>
      </dl>
      {props.can.edit && (
        <EditDeleteActions
          preloadEdit={ItemForm.preload}
          onEdit={() => setEditing(i)}
          onDelete={() => setDeleting(i)}
        >
          <a className="btn" href={`/sales/data?item_number=${encodeURIComponent(i.item_number)}`}>
            <Icon name="table" size={18} />View Sales
          </a>
          {i.inventory_type !== "Charge Code" && (
            <a className="btn" href={`/sales/availability?item_id=${i.id}`}>
              <Icon name="event" size={18} />Availability
            </a>
          )}
        </EditDeleteActions>
      )}
    </div>
  );

  return (
    <>
      <div className="toolbar inspection-searches">
        <FilterFields list={list} fields={SEARCHES} textDebounceMs={300} />
        <span className="spacer" />
        <DownloadButton crud={crud} endpoint="/api/sales/items" />
        {props.can.edit && (
          <>
            <button type="button" className="btn" onClick={() => setBatch(true)} disabled={!hydrated}>
              <Icon name="upload" size={20} />Batch Upload
            </button>
            <NewButton crud={crud} preload={ItemForm.preload} />
          </>
        )}
      </div>
      <ListTable
        list={list}
        sizes={ITEM_PAGE_SIZES}
        label="Items"
        columns={COLUMNS}
        rowId={(i) => String(i.id)}
        renderExpanded={details}
        emptyText="No Items Found"
        loadingText="Downloading Item Data..."
        hydrated={hydrated}
      />
      <CrudDialogs
        crud={crud}
        form={(item, dialog) => <ItemForm item={item} {...dialog} />}
        question="Are you sure you want to delete this item?"
      />
      {batch && (
        <BatchUpload
          title="Batch Upload"
          columns={BATCH_COLUMNS}
          aliases={BATCH_ALIASES}
          endpoint="/api/sales/items/batch"
          preview={ITEM_BATCH_PREVIEW}
          extraFields={<p className="field-note">{ITEM_BATCH_RULE}</p>}
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
