import type { DataColumn } from "../../../components/DataTable.tsx";
import { ListTable } from "../../../components/ListTable.tsx";
import { FilterFields } from "../../../components/FilterFields.tsx";
import { Icon } from "../../../components/icons.tsx";
import { EditDeleteActions } from "../../../components/RowActions.tsx";
import { DownloadButton, NewButton, RefreshButton } from "../../../components/ListButtons.tsx";
import { useCrudList } from "../../../components/crud_list.ts";
import { CrudDialogs } from "../../../components/CrudDialogs.tsx";
import { JOB_PAGE_SIZES } from "../types.ts";
import type { JobRow, JobsProps, JobsQuery } from "../types.ts";
import { formatDate } from "../../../../lib/format.ts";
import { lazyDialog } from "../../../lib/lazy_dialog.tsx";

// Loaded when first opened (decision 022).
const JobForm = lazyDialog(() => import("../JobForm.tsx").then((m) => m.JobForm));

// A plain link: the PDF opens in a new tab, with or without JavaScript.
const reportLink = (j: JobRow) => (
  <a
    className="btn nowrap"
    href={`/api/pt/jobs/${j.id}/report`}
    target="_blank"
    rel="noopener"
    aria-label={`Job Report PDF for job ${j.job_number}`}
  >
    Job Report PDF
  </a>
);

const COLUMNS: DataColumn<JobRow>[] = [
  {
    id: "date",
    header: "Date",
    essential: true,
    cell: (j) => <span className="nowrap">{formatDate(j.date)}</span>,
  },
  // A link in the server's HTML: a field user's first tap (the job's inspections) works before the scripts.
  {
    id: "job_number",
    header: "Job Number",
    essential: true,
    cell: (j) => (
      <a href={`/pt/inspection?job_id=${j.id}`} title={`Inspections of job ${j.job_number}`}>
        {j.job_number}
      </a>
    ),
  },
  { id: "customer", header: "Customer", essential: true, cell: (j) => j.customer_company.name },
  { id: "operator", header: "Operator", cell: (j) => j.operator_company.name },
  { id: "district", header: "District", cell: (j) => j.district },
  { id: "inspector", header: "Inspector", cell: (j) => j.inspector },
  { id: "report", header: "Report", cell: reportLink, sortable: false },
];

const SEARCHES = [
  { key: "search_operator_name", label: "Operator" },
  { key: "search_job_number", label: "Job Number" },
  { key: "search_customer_name", label: "Customer" },
] as const;

/** The jobs table: greeting, refresh, New Job, searches, download, paging, row actions and dialogs. */
export default function JobsTable(props: JobsProps) {
  const crud = useCrudList<
    JobsQuery,
    JobRow
  >({
    path: "/pt/jobs",
    endpoint: "/api/pt/jobs",
    query: props.query,
    data: props.data,
  });
  const { list, hydrated, setEditing, setDeleting } = crud;

  // The expanded row: its actions first (on a phone the wide table scrolls; the left edge shows),
  // then the job's other fields.
  const details = (j: JobRow) => (
    <div className="row-details">
      <EditDeleteActions
        preloadEdit={JobForm.preload}
        onEdit={props.can.edit ? () => setEditing(j) : undefined}
        onDelete={props.can.edit ? () => setDeleting(j) : undefined}
      >
        <a className="btn" href={`/pt/inspection?job_id=${j.id}`}>
          <Icon name="assignment" size={18} />Inspection
        </a>
      </EditDeleteActions>
      <dl>
        <dt>UV Serial Number</dt>
        <dd>{j.uv_serial_number}</dd>
        <dt>UV Recalibration Date</dt>
        <dd>{formatDate(j.uv_recalibration_date)}</dd>
        <dt>Blacklight Reading</dt>
        <dd>{j.blacklight_reading}</dd>
        <dt>UT Serial Number</dt>
        <dd>{j.ut_serial_number}</dd>
        <dt>UT Recalibration Date</dt>
        <dd>{formatDate(j.ut_recalibration_date)}</dd>
        <dt>Comments</dt>
        <dd>{j.comments}</dd>
        <dt>Inspections</dt>
        <dd>{j.inspections}</dd>
      </dl>
    </div>
  );

  return (
    <>
      <div className="page-head">
        <h1>Welcome, {props.name}</h1>
        {/* One group, so on a phone the buttons wrap together under the greeting. */}
        <div className="row-actions">
          <RefreshButton crud={crud} />
          <DownloadButton crud={crud} endpoint="/api/pt/jobs" />
          {props.can.create && <NewButton crud={crud} preload={JobForm.preload} label="New Job" />}
        </div>
      </div>
      <div className="toolbar">
        <FilterFields
          list={list}
          fields={SEARCHES.filter((s) => s.key !== "search_customer_name" || props.can.searchCustomer)}
        />
      </div>
      <ListTable
        list={list}
        sizes={JOB_PAGE_SIZES}
        label="Jobs"
        columns={COLUMNS}
        rowId={(j) => String(j.id)}
        renderExpanded={details}
        emptyText="No Jobs Found"
        loadingText="Downloading Job Data..."
        hydrated={hydrated}
      />
      <CrudDialogs
        crud={crud}
        form={(job, dialog) => <JobForm job={job} company={props.company} {...dialog} />}
        question="Are you sure you want to delete this job?"
      />
    </>
  );
}
