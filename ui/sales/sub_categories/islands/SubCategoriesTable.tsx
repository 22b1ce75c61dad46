import type { DataColumn } from "../../../components/DataTable.tsx";
import { ListTable } from "../../../components/ListTable.tsx";
import { FilterFields } from "../../../components/FilterFields.tsx";
import { EditDeleteActions } from "../../../components/RowActions.tsx";
import { DownloadButton, NewButton } from "../../../components/ListButtons.tsx";
import { useCrudList } from "../../../components/crud_list.ts";
import { CrudDialogs } from "../../../components/CrudDialogs.tsx";
import { SUB_CATEGORY_PAGE_SIZES } from "../types.ts";
import type { SubCategoriesProps, SubCategoriesQuery, SubCategoryRow } from "../types.ts";
import { lazyDialog } from "../../../lib/lazy_dialog.tsx";

// Loaded when first opened (decision 022).
const SubCategoryForm = lazyDialog(() => import("../SubCategoryForm.tsx").then((m) => m.SubCategoryForm));

const COLUMNS: DataColumn<SubCategoryRow>[] = [
  { id: "name", header: "Name", essential: true, cell: (s) => s.name },
  { id: "category", header: "Product Line", essential: true, cell: (s) => s.category.name },
  { id: "notes", header: "Notes", cell: (s) => <span className="cell-clip" title={s.notes}>{s.notes}</span> },
];

/** Sub product lines: search (300 ms), paging, row actions, the sub product line and delete dialogs. */
export default function SubCategoriesTable(props: SubCategoriesProps) {
  const crud = useCrudList<
    SubCategoriesQuery,
    SubCategoryRow
  >({
    path: "/sales/sub-product-lines",
    endpoint: "/api/sales/sub_categories",
    query: props.query,
    data: props.data,
  });
  const { list, hydrated, setEditing, setDeleting } = crud;

  const details = (s: SubCategoryRow) => (
    <div className="row-details">
      <dl>
        <dt>Notes</dt>
        <dd className="pre-wrap">{s.notes || "None"}</dd>
      </dl>
      {props.can.edit && (
        <EditDeleteActions
          preloadEdit={SubCategoryForm.preload}
          onEdit={() => setEditing(s)}
          onDelete={() => setDeleting(s)}
        />
      )}
    </div>
  );

  return (
    <>
      <div className="toolbar">
        <FilterFields
          list={list}
          fields={[{ key: "search_name", label: "Search name" }]}
          textDebounceMs={300}
        />
        <span className="spacer" />
        <DownloadButton crud={crud} endpoint="/api/sales/sub_categories" />
        {props.can.edit && <NewButton crud={crud} preload={SubCategoryForm.preload} />}
      </div>
      <ListTable
        list={list}
        sizes={SUB_CATEGORY_PAGE_SIZES}
        label="Sub Product Lines"
        columns={COLUMNS}
        rowId={(s) => String(s.id)}
        renderExpanded={details}
        emptyText="No Data Found"
        loadingText="Downloading Sub Product Line Data..."
        hydrated={hydrated}
      />
      <CrudDialogs
        crud={crud}
        form={(sub, dialog) => <SubCategoryForm sub={sub} {...dialog} />}
        question="Are you sure you want to delete this item?"
      />
    </>
  );
}
