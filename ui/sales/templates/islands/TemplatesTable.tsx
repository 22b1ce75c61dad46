import { useState } from "react";
import type { DataColumn } from "../../../components/DataTable.tsx";
import { ListTable } from "../../../components/ListTable.tsx";
import { FilterFields } from "../../../components/FilterFields.tsx";
import { EditDeleteActions } from "../../../components/RowActions.tsx";
import { DownloadButton, NewButton } from "../../../components/ListButtons.tsx";
import { useCrudList } from "../../../components/crud_list.ts";
import { CrudDialogs } from "../../../components/CrudDialogs.tsx";
import { TEMPLATE_PAGE_SIZES } from "../types.ts";
import { inventoryLabel } from "../../../../api/sales/inventory_rows/rules.ts";
import { UnitChoice } from "../UnitChoice.tsx";
import type { TemplateRow, TemplatesProps, TemplatesQuery, UnitOption } from "../types.ts";
import { lazyDialog } from "../../../lib/lazy_dialog.tsx";

// Loaded when first opened (decision 022).
const TemplateForm = lazyDialog(() => import("../TemplateForm.tsx").then((m) => m.TemplateForm));

const COLUMNS: DataColumn<TemplateRow>[] = [
  { id: "name", header: "Name", essential: true, cell: (t) => t.name },
  { id: "business_unit", header: "Business Unit", cell: (t) => t.business_unit.name },
  { id: "items", header: "Items", sortable: false, essential: true, cell: (t) => t.inventory_ids.length },
];

/**
 * Templates of one business unit (spec: searchable only with a unit chosen): the unit choice, a name
 * search (300 ms), paging, row details with the ordered inventory, the template and delete dialogs.
 */
export default function TemplatesTable(props: TemplatesProps) {
  const [unit, setUnit] = useState<UnitOption | null>(props.unit);
  const crud = useCrudList<
    TemplatesQuery,
    TemplateRow
  >({
    path: "/sales/templates",
    endpoint: "/api/sales/templates",
    query: props.query,
    data: props.data,
  });
  const { list, hydrated, setEditing, setDeleting, saved } = crud;
  const chooseUnit = (u: UnitOption | null) => {
    setUnit(u);
    list.update({ search_business_unit: u?.id, search_name: undefined, page: 1 });
  };

  const details = (t: TemplateRow) => (
    <div className="row-details">
      <div>
        <strong>Inventory, in order</strong>
        {t.inventory.length
          ? (
            <ol style={{ margin: "4px 0 0", paddingLeft: 24 }}>
              {t.inventory.map((r) => <li key={r.id}>{inventoryLabel(r)}</li>)}
            </ol>
          )
          : <p className="field-note">None</p>}
      </div>
      {props.can.edit && (
        <EditDeleteActions
          preloadEdit={TemplateForm.preload}
          onEdit={() => setEditing(t)}
          onDelete={() => setDeleting(t)}
        />
      )}
    </div>
  );

  return (
    <>
      <div className="toolbar">
        <UnitChoice selected={unit} onChange={chooseUnit} />
        {unit && (
          <FilterFields
            key={unit.id}
            list={list}
            fields={[{ key: "search_name", label: "Search name" }]}
            textDebounceMs={300}
          />
        )}
        <span className="spacer" />
        {unit && <DownloadButton crud={crud} endpoint="/api/sales/templates" />}
        {props.can.edit && <NewButton crud={crud} preload={TemplateForm.preload} />}
      </div>
      {unit
        ? (
          <ListTable
            list={list}
            sizes={TEMPLATE_PAGE_SIZES}
            label="Templates"
            columns={COLUMNS}
            rowId={(t) => String(t.id)}
            renderExpanded={details}
            emptyText="No Templates Found"
            loadingText="Downloading Template Data..."
            hydrated={hydrated}
          />
        )
        : <p className="page-intro">Choose a business unit to see its templates</p>}
      <CrudDialogs
        crud={crud}
        form={(template, { onClose }) => (
          <TemplateForm
            template={template}
            unit={unit}
            onClose={onClose}
            onSaved={(t) => {
              // A template saved in another unit: show that unit's templates.
              if (t.business_unit.id !== unit?.id) chooseUnit(t.business_unit);
              saved(t.message);
            }}
          />
        )}
        question="Are you sure you want to delete this template?"
      />
    </>
  );
}
