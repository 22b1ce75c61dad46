import type { DataColumn } from "../../../components/DataTable.tsx";
import { ListTable } from "../../../components/ListTable.tsx";
import { FilterFields } from "../../../components/FilterFields.tsx";
import { EditDeleteActions } from "../../../components/RowActions.tsx";
import { DownloadButton, NewButton } from "../../../components/ListButtons.tsx";
import { useCrudList } from "../../../components/crud_list.ts";
import { CrudDialogs } from "../../../components/CrudDialogs.tsx";
import { CATEGORY_PAGE_SIZES } from "../types.ts";
import type { CategoriesProps, CategoriesQuery, CategoryRow } from "../types.ts";
import { lazyDialog } from "../../../lib/lazy_dialog.tsx";

// Loaded when first opened (decision 022).
const CategoryForm = lazyDialog(() => import("../CategoryForm.tsx").then((m) => m.CategoryForm));

const clip = (text: string) => <span className="cell-clip" title={text}>{text}</span>;
const locationsOf = (c: CategoryRow) => (c.custom.locations ?? []).join(", ");

const COLUMNS: DataColumn<CategoryRow>[] = [
  { id: "name", header: "Name", essential: true, cell: (c) => c.name },
  { id: "notes", header: "Notes", cell: (c) => clip(c.notes) },
];
const UNIT_COLUMNS: DataColumn<CategoryRow>[] = [
  ...COLUMNS,
  { id: "locations", header: "Locations", sortable: false, cell: (c) => clip(locationsOf(c)) },
];

/** One model's categories: search (300 ms), paging, row actions, the category and delete dialogs. */
export default function CategoriesTable(props: CategoriesProps) {
  const { page } = props;
  const isUnit = page.model === "Business Unit";
  const crud = useCrudList<
    CategoriesQuery & { model: string },
    CategoryRow
  >({
    path: page.path,
    endpoint: "/api/sales/categories",
    query: { ...props.query, model: page.model },
    data: props.data,
  });
  const { list, hydrated, setEditing, setDeleting } = crud;

  const details = (c: CategoryRow) => (
    <div className="row-details">
      <dl>
        <dt>Notes</dt>
        <dd className="pre-wrap">{c.notes || "None"}</dd>
        {isUnit && (
          <>
            <dt>Locations</dt>
            <dd>{locationsOf(c) || "None"}</dd>
          </>
        )}
      </dl>
      {props.can.edit && (
        <EditDeleteActions
          preloadEdit={CategoryForm.preload}
          onEdit={() => setEditing(c)}
          onDelete={() => setDeleting(c)}
        />
      )}
    </div>
  );

  return (
    <>
      <div className="toolbar">
        {/* The model is the page's: its URL does not carry it. */}
        <FilterFields
          list={list}
          fields={[{ key: "search_name", label: "Search name" }]}
          omit={["model"]}
          textDebounceMs={300}
        />
        <span className="spacer" />
        {/* New, like Edit and Delete, is for sales-admin (the server answers 403 to anyone else). */}
        <DownloadButton crud={crud} endpoint="/api/sales/categories" />
        {props.can.edit && <NewButton crud={crud} preload={CategoryForm.preload} />}
      </div>
      <ListTable
        list={list}
        sizes={CATEGORY_PAGE_SIZES}
        label={page.title}
        columns={isUnit ? UNIT_COLUMNS : COLUMNS}
        rowId={(c) => String(c.id)}
        renderExpanded={details}
        emptyText="No Data Found"
        loadingText={`Downloading ${page.model} Data...`}
        hydrated={hydrated}
      />
      <CrudDialogs
        crud={crud}
        form={(category, dialog) => <CategoryForm page={page} category={category} {...dialog} />}
        question="Are you sure you want to delete this item?"
      />
    </>
  );
}
