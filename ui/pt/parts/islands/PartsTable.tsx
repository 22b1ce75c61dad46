import type { DataColumn } from "../../../components/DataTable.tsx";
import { ListTable } from "../../../components/ListTable.tsx";
import { FilterFields } from "../../../components/FilterFields.tsx";
import { EditDeleteActions } from "../../../components/RowActions.tsx";
import { DownloadButton, NewButton } from "../../../components/ListButtons.tsx";
import { useCrudList } from "../../../components/crud_list.ts";
import { CrudDialogs } from "../../../components/CrudDialogs.tsx";
import { PART_PAGE_SIZES } from "../types.ts";
import type { PartRow, PartsProps, PartsQuery } from "../types.ts";
import { lazyDialog } from "../../../lib/lazy_dialog.tsx";

// Loaded when first opened (decision 022).
const PartForm = lazyDialog(() => import("../PartForm.tsx").then((m) => m.PartForm));

const COLUMNS: DataColumn<PartRow>[] = [
  { id: "name", header: "Part Name", essential: true, cell: (p) => p.name },
  { id: "description", header: "Part Desc.", cell: (p) => p.description },
  { id: "manufacturer", header: "Manufacturer", essential: true, cell: (p) => p.manufacturer },
];

/** The parts table with its search, download, paging, row actions and the part and delete dialogs. */
export default function PartsTable(props: PartsProps) {
  const crud = useCrudList<
    PartsQuery,
    PartRow
  >({
    path: "/pt/parts",
    endpoint: "/api/pt/parts",
    query: props.query,
    data: props.data,
  });
  const { list, hydrated, setEditing, setDeleting } = crud;

  // The expanded row repeats the full text (long descriptions wrap here, not in the table).
  const details = (p: PartRow) => (
    <div className="row-details">
      <dl>
        <dt>Part Desc.</dt>
        <dd>{p.description || "None"}</dd>
        <dt>Manufacturer</dt>
        <dd>{p.manufacturer || "None"}</dd>
      </dl>
      {props.can.edit && (
        <EditDeleteActions
          preloadEdit={PartForm.preload}
          onEdit={() => setEditing(p)}
          onDelete={() => setDeleting(p)}
        />
      )}
    </div>
  );

  return (
    <>
      <div className="toolbar">
        <FilterFields list={list} fields={[{ key: "search_name", label: "Search part name" }]} />
        <span className="spacer" />
        <DownloadButton crud={crud} endpoint="/api/pt/parts" />
        <NewButton crud={crud} preload={PartForm.preload} label="New Part" />
      </div>
      <ListTable
        list={list}
        sizes={PART_PAGE_SIZES}
        label="Parts"
        columns={COLUMNS}
        rowId={(p) => String(p.id)}
        renderExpanded={details}
        emptyText="No Parts Found"
        loadingText="Downloading Part Data..."
        hydrated={hydrated}
      />
      <CrudDialogs
        crud={crud}
        form={(part, dialog) => <PartForm part={part} {...dialog} />}
        question="Are you sure you want to delete this part?"
      />
    </>
  );
}
