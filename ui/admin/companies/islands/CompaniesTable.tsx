import type { DataColumn } from "../../../components/DataTable.tsx";
import { ListTable } from "../../../components/ListTable.tsx";
import { FilterFields } from "../../../components/FilterFields.tsx";
import { EditDeleteActions } from "../../../components/RowActions.tsx";
import { DownloadButton, NewButton } from "../../../components/ListButtons.tsx";
import { useCrudList, versionOf } from "../../../components/crud_list.ts";
import { CrudDialogs } from "../../../components/CrudDialogs.tsx";
import { api } from "../../../lib/api.ts";
import { COMPANY_TYPE_LABELS } from "../../../../lib/enums.ts";
import { COMPANY_PAGE_SIZES } from "../types.ts";
import type { CompaniesProps, CompaniesQuery, CompanyRow } from "../types.ts";
import { lazyDialog } from "../../../lib/lazy_dialog.tsx";

// Loaded when first opened (decision 022).
const CompanyForm = lazyDialog(() => import("../CompanyForm.tsx").then((m) => m.CompanyForm));

const COLUMNS: DataColumn<CompanyRow>[] = [{
  id: "name",
  header: "Company",
  essential: true,
  cell: (c) => c.name,
}];

/** The companies table with its search, paging, row actions and the company and delete dialogs. */
export default function CompaniesTable(props: CompaniesProps) {
  const crud = useCrudList<CompaniesQuery, CompanyRow>(
    { path: "/admin/companies", endpoint: "/api/admin/companies", query: props.query, data: props.data },
    // The spec deletes at /api/companies/<id>, not under the list's endpoint.
    (c) => api(`/api/companies/${c.id}`, { method: "DELETE", version: versionOf(c) }),
  );
  const { list, hydrated, setEditing, setDeleting } = crud;

  const details = (c: CompanyRow) => {
    const address = [c.custom?.address_line_1, c.custom?.address_line_2, c.custom?.address_line_3]
      .filter(Boolean).join(", ");
    return (
      <div className="row-details">
        <dl>
          <dt>Type</dt>
          <dd>{COMPANY_TYPE_LABELS[c.company_type] ?? c.company_type}</dd>
          {address && (
            <>
              <dt>Address</dt>
              <dd>{address}</dd>
            </>
          )}
        </dl>
        <EditDeleteActions
          preloadEdit={CompanyForm.preload}
          onEdit={props.can.edit ? () => setEditing(c) : undefined}
          onDelete={props.can.delete ? () => setDeleting(c) : undefined}
        />
      </div>
    );
  };

  return (
    <>
      <div className="toolbar">
        <FilterFields list={list} fields={[{ key: "search_name", label: "Search company name" }]} />
        <span className="spacer" />
        <DownloadButton crud={crud} endpoint="/api/admin/companies" />
        {/* Only those the server lets create a company see New Company (never a form that ends in 403). */}
        {props.can.edit && <NewButton crud={crud} preload={CompanyForm.preload} label="New Company" />}
      </div>
      <ListTable
        list={list}
        sizes={COMPANY_PAGE_SIZES}
        label="Companies"
        columns={COLUMNS}
        rowId={(c) => String(c.id)}
        renderExpanded={details}
        emptyText="No Companys Found"
        loadingText="Downloading Company Data..."
        hydrated={hydrated}
      />
      <CrudDialogs
        crud={crud}
        form={(company, dialog) => (
          <CompanyForm company={company} canSettings={props.can.settings} {...dialog} />
        )}
        question="Are you sure you want to delete this company?"
      />
    </>
  );
}
