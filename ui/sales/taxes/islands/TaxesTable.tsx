import { ListTable } from "../../../components/ListTable.tsx";
import { SearchBox } from "../../../components/SearchBox.tsx";
import { EditDeleteActions } from "../../../components/RowActions.tsx";
import { DownloadButton, NewButton } from "../../../components/ListButtons.tsx";
import { useCrudList } from "../../../components/crud_list.ts";
import { CrudDialogs } from "../../../components/CrudDialogs.tsx";
import { joinTaxSearch, splitTaxSearch } from "../../../../api/sales/taxes/rules.ts";
import { TAX_PAGE_SIZES } from "../types.ts";
import { COLUMNS } from "../columns.tsx";
import type { TaxesProps, TaxesQuery, TaxRow } from "../types.ts";
import { lazyDialog } from "../../../lib/lazy_dialog.tsx";

// Loaded when first opened (decision 022).
const TaxForm = lazyDialog(() => import("../TaxForm.tsx").then((m) => m.TaxForm));

const NO_SEARCH = {
  search_name: undefined,
  search_state: undefined,
  search_county: undefined,
  search_city: undefined,
};

/** The taxes table with its search (300 ms), paging, row actions and the tax and delete dialogs. */
export default function TaxesTable(props: TaxesProps) {
  const crud = useCrudList<
    TaxesQuery,
    TaxRow
  >({
    path: "/sales/taxes",
    endpoint: "/api/sales/taxes",
    query: props.query,
    data: props.data,
  });
  const { list, hydrated, setEditing, setDeleting } = crud;
  const { query } = list;

  const details = (t: TaxRow) => (
    <div className="row-details">
      <dl>
        <dt>Notes</dt>
        <dd className="pre-wrap">{t.notes || "None"}</dd>
      </dl>
      {props.can.edit && (
        <EditDeleteActions
          preloadEdit={TaxForm.preload}
          onEdit={() => setEditing(t)}
          onDelete={() => setDeleting(t)}
        />
      )}
    </div>
  );

  return (
    <>
      <div className="toolbar">
        <SearchBox
          label="Search name, state, county or city"
          name="search_name"
          value={joinTaxSearch(query)}
          keep={{ rowsPerPage: query.rowsPerPage, sortBy: query.sortBy, descending: query.descending }}
          onApply={(text) => list.update({ ...NO_SEARCH, ...splitTaxSearch(text), page: 1 })}
          debounceMs={300}
        />
        <span className="spacer" />
        {/* New, like Edit and Delete, is for sales-admin (the server answers 403 to anyone else). */}
        <DownloadButton crud={crud} endpoint="/api/sales/taxes" />
        {props.can.edit && <NewButton crud={crud} preload={TaxForm.preload} />}
      </div>
      <ListTable
        list={list}
        sizes={TAX_PAGE_SIZES}
        label="Taxes"
        columns={COLUMNS}
        rowId={(t) => String(t.id)}
        renderExpanded={details}
        emptyText="No Data Found"
        loadingText="Downloading Tax Data..."
        hydrated={hydrated}
      />
      <CrudDialogs
        crud={crud}
        form={(tax, dialog) => <TaxForm tax={tax} {...dialog} />}
        question="Are you sure you want to delete this item?"
      />
    </>
  );
}
