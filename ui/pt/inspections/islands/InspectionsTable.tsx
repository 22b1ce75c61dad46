import { lazy, Suspense, useState } from "react";
import { ListTable } from "../../../components/ListTable.tsx";
import { Icon } from "../../../components/icons.tsx";
import { EditDeleteActions } from "../../../components/RowActions.tsx";
import { DownloadButton, NewButton, RefreshButton } from "../../../components/ListButtons.tsx";
import { useCrudList } from "../../../components/crud_list.ts";
import { CrudDialogs } from "../../../components/CrudDialogs.tsx";
import { COLUMNS } from "../columns.tsx";
import { formatDate } from "../../../../lib/format.ts";
import { DateTime } from "../../../lib/time_zone.tsx";
import { Searches } from "../Searches.tsx";
import {
  INSPECTION_TABLE_SIZES,
  type InspectionRow,
  type InspectionsProps,
  type InspectionsQuery,
} from "../types.ts";
import { lazyDialog, preloadOn } from "../../../lib/lazy_dialog.tsx";
import { showSnack } from "../../../lib/events.ts";
import { useOfflineQueue } from "../../../offline/use_offline_queue.ts";
import { SyncStatus } from "../SyncStatus.tsx";

// Loaded when first opened (decision 022); the records kept offline when there are some.
const QueuedTable = lazy(() => import("../QueuedTable.tsx"));
const BatchForm = lazyDialog(() => import("../BatchForm.tsx").then((m) => m.BatchForm));
const InspectionForm = lazyDialog(() => import("../InspectionForm.tsx").then((m) => m.InspectionForm));
const LabelsDialog = lazyDialog(() => import("../../../scan/LabelsDialog.tsx").then((m) => m.LabelsDialog));
const PhotosDialog = lazyDialog(() => import("../PhotosDialog.tsx").then((m) => m.PhotosDialog));

/** Opens an inspection's photos and signature (every reader sees them; job-admins change them). */
function PhotosButton({ onPress }: { onPress: () => void }) {
  return (
    <button type="button" className="btn" onClick={onPress} {...preloadOn(PhotosDialog.preload)}>
      <Icon name="camera" size={18} />Photos and signature
    </button>
  );
}

/**
 * The inspection table of a job (/pt/inspection) or of every job in scope (/pt/data): greeting and
 * refresh, the job header, searches, paging, expanded rows and, on the job view, the inspection,
 * batch and delete dialogs for inspectors and job-admins.
 */
export default function InspectionsTable(props: InspectionsProps) {
  const { view, job, can } = props;
  const crud = useCrudList<
    InspectionsQuery,
    InspectionRow
  >({
    path: view === "job" ? "/pt/inspection" : "/pt/data",
    endpoint: "/api/pt/inspections",
    query: props.query,
    data: props.data,
  });
  const { list, hydrated, setEditing, setDeleting, saved } = crud;
  const editable = view === "job" && can.edit;
  const [batchOpen, setBatchOpen] = useState(false);
  const [labelsOpen, setLabelsOpen] = useState(false);
  // Inspectors on a job's page may record without a network (ui/offline/).
  const entering = view === "job" && can.enter && job
    ? { userId: props.userId, jobNumber: job.job_number }
    : null;
  const offline = useOfflineQueue(entering?.userId, list.refetch);
  // A record kept on the device: the form closes without refetching the list (there is no network).
  const queuedSaved = (message: string) => {
    setEditing(undefined);
    showSnack("success", message);
  };
  const [photosOf, setPhotosOf] = useState<InspectionRow | null>(null);

  const details = (r: InspectionRow) => (
    <div className="row-details row-details-sticky">
      <dl>
        <dt>Job Number</dt>
        <dd>{r.job.job_number} ({formatDate(r.job.date)})</dd>
        <dt>Entered</dt>
        <dd>
          <DateTime value={r.inspection_time} />
        </dd>
        <dt>Notes</dt>
        <dd className="pre-wrap">{r.notes || "None"}</dd>
      </dl>
      {editable
        ? (
          <EditDeleteActions
            preloadEdit={InspectionForm.preload}
            onEdit={() => setEditing(r)}
            onDelete={() => setDeleting(r)}
          >
            <PhotosButton onPress={() => setPhotosOf(r)} />
          </EditDeleteActions>
        )
        : (
          <div className="row-actions">
            <PhotosButton onPress={() => setPhotosOf(r)} />
          </div>
        )}
    </div>
  );

  return (
    <>
      <div className="page-head">
        {/* The data page is the logo and the table (the spec): its heading is for screen readers only. */}
        {props.view === "data"
          ? <h1 className="sr-only">Inspection Data</h1>
          : <h1>Welcome, {props.name}</h1>}
        {entering && <SyncStatus {...offline} />}
        <RefreshButton crud={crud} />
      </div>
      {job && (
        <p className="job-header">
          <span>
            <strong>Job Number</strong> {job.job_number}
          </span>
          <span>
            <strong>Date</strong> {formatDate(job.date)}
          </span>
          <span>
            <strong>Customer</strong> {job.customer}
          </span>
          <span>
            <strong>Operator</strong> {job.operator}
          </span>
        </p>
      )}
      {job && (
        <div className="toolbar">
          {can.enter && (
            <>
              <NewButton crud={crud} preload={InspectionForm.preload} label="Enter new inspection" />
              <button
                type="button"
                className="btn btn-primary"
                onClick={() => setBatchOpen(true)}
                disabled={!hydrated}
                {...preloadOn(BatchForm.preload)}
              >
                <Icon name="add" size={20} />Enter new batch
              </button>
            </>
          )}
          <button
            type="button"
            className="btn"
            onClick={() => setLabelsOpen(true)}
            disabled={!hydrated || list.data.total === 0}
            {...preloadOn(LabelsDialog.preload)}
          >
            <Icon name="print" size={20} />Print QR labels
          </button>
          {/* Disabled until hydrated, and said so (decision 056): a tap is never met with silence. */}
          {!hydrated && <span className="muted" role="status">Loading the page's buttons...</span>}
        </div>
      )}
      <Searches
        view={view}
        list={list}
        searchCustomer={can.searchCustomer}
      >
        {view === "data" && <DownloadButton crud={crud} endpoint="/api/pt/inspections" />}
      </Searches>
      {entering && offline.records.length > 0 && (
        <Suspense fallback={null}>
          <QueuedTable {...offline} />
        </Suspense>
      )}
      <ListTable
        list={list}
        sizes={INSPECTION_TABLE_SIZES}
        label="Inspections"
        columns={COLUMNS}
        rowId={(r) => String(r.id)}
        renderExpanded={details}
        emptyText="No Inspections Found"
        loadingText="Downloading Inspection Data..."
        hydrated={hydrated}
      />
      <CrudDialogs
        crud={crud}
        form={job
          ? (inspection, dialog) => (
            <InspectionForm
              inspection={inspection}
              jobId={job.id}
              offline={entering}
              onQueued={queuedSaved}
              {...dialog}
            />
          )
          : undefined}
        question="Are you sure you want to delete this inspection?"
      />
      {job && labelsOpen && (
        <LabelsDialog
          endpoint="/api/pt/inspections/labels"
          query={{ job_id: job.id }}
          what={`the serial numbers of job ${job.job_number}`}
          onClose={() => setLabelsOpen(false)}
        />
      )}
      {photosOf && (
        <PhotosDialog
          inspection={photosOf}
          canEdit={view === "job" && can.media}
          onClose={() => setPhotosOf(null)}
        />
      )}
      {job && batchOpen && (
        <BatchForm
          jobId={job.id}
          offline={entering}
          onQueued={(message) => {
            setBatchOpen(false);
            showSnack("success", message);
          }}
          onClose={() => setBatchOpen(false)}
          onSaved={(message) => {
            setBatchOpen(false);
            saved(message);
          }}
        />
      )}
    </>
  );
}
