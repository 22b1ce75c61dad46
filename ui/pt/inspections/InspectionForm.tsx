import { FormDialog, useFormSave, useTouched } from "../../components/FormDialog.tsx";
import { TextField } from "../../primitives/TextField.tsx";
import { Select } from "../../primitives/Select.tsx";
import { ComboBox, type ComboOption } from "../../primitives/ComboBox.tsx";
import { api } from "../../lib/api.ts";
import { BAND_COLORS, InspectionInput, MPI_RESULTS } from "../../../api/pt/inspections/schemas.ts";
import { useToday } from "../../lib/time_zone.tsx";
import type { InspectionRow } from "./types.ts";
import { issuesOf } from "../../lib/form.ts";
import { QUEUED_MESSAGE, sendOrQueue } from "../../offline/queue.ts";
import { useVersioned } from "../../lib/use_versioned.ts";
import { PassFailField } from "./PassFailField.tsx";

/** Who a new record made offline belongs to (the inspector on a job's page); null: never queued. */
export type OfflineOwner = { userId: number; jobNumber: string } | null;

const NONE = "none";
const options = (values: readonly string[], none: string) => [
  { id: NONE, label: none },
  ...values.map((v) => ({ id: v, label: v })),
];
const BAND_OPTIONS = options(BAND_COLORS, "None");
/** A result, like Pass Visual?, starts as not recorded: an untouched form records no failure (issue 32). */
const MPI_OPTIONS = options(MPI_RESULTS, "Not recorded");

/** The part autocomplete: the inspection company's catalogue, by name. */
export const loadParts = (text: string, signal: AbortSignal) =>
  api<{ results: ComboOption[] }>("/api/parts", { query: { search_name: text }, signal })
    .then((r) => r.results.map(({ id, name }) => ({ id, name })));

const num = (v: number | null | undefined) => (v === null || v === undefined ? "" : String(v));

type Text = "date" | "serial_number" | "batch" | "ut_1" | "ut_2" | "ut_3" | "pressure" | "notes";

/** The form's values as filled from an inspection (a new one: today, no result recorded, nothing chosen). */
function initial(r: InspectionRow | null | undefined, today: string) {
  return {
    date: r?.date ?? today,
    serial_number: r?.serial_number ?? "",
    batch: r?.batch ?? "",
    part_id: (r?.part ? { id: r.part.id, name: r.part.name } : null) as ComboOption | null,
    ut_1: num(r?.ut_1),
    ut_2: num(r?.ut_2),
    ut_3: num(r?.ut_3),
    pressure: num(r?.pressure),
    band_color: r?.band_color ?? NONE,
    mpi_result: r?.mpi_result ?? NONE,
    // Not recorded until chosen (issue 32): an untouched "No" was saved as a failure, and held a returned unit.
    visual_pass: (r ? r.visual_pass : null) as boolean | null,
    notes: r?.notes ?? "",
  };
}

/** The form's labels, for the conflict dialog. */
const LABELS: Record<string, string> = {
  date: "Date",
  serial_number: "Serial Number",
  batch: "Batch",
  part_id: "Part",
  ut_1: "UT 1",
  ut_2: "UT 2",
  ut_3: "UT 3",
  pressure: "Pressure",
  band_color: "Band Color",
  mpi_result: "MPI Result",
  visual_pass: "Pass Visual?",
  notes: "Notes",
};

/**
 * Enter or edit one inspection (max width 750). Only the date is required (the spec); Pass Visual? and MPI
 * Result start as not recorded and may be saved so. Numbers, band colour and MPI result are checked with
 * the API's own schema, messages shown once a field has been visited.
 * With an `offline` owner a new inspection is queued on the device when the network is gone
 * (`onQueued`). An edit sends the inspection's version (If-Match) and shows the conflict dialog on a 412
 * (decision 038); edits are never queued (decision 023), so a queued record has no version to go stale.
 */
export function InspectionForm({ inspection, jobId, offline = null, onClose, onSaved, onQueued = onSaved }: {
  inspection: InspectionRow | null;
  jobId: number;
  offline?: OfflineOwner;
  onClose: () => void;
  onSaved: (message: string) => void;
  onQueued?: (message: string) => void;
}) {
  const r = inspection;
  const today = useToday();
  const edit = useVersioned(r, (x) => initial(x, today), { labels: LABELS });
  const { v, setV } = edit;
  const { part_id: part, visual_pass: visual, band_color: band, mpi_result: mpi } = v;
  const pick = <K extends keyof typeof v>(k: K) => (x: (typeof v)[K]) => setV((o) => ({ ...o, [k]: x }));
  const { touch, setTouched, shownFrom, revealAll } = useTouched();
  const { busy, errors: serverErrors, setErrors: setServerErrors, save } = useFormSave(edit);

  const body = {
    ...(r ? { id: r.id } : {}),
    job_id: r?.job_id ?? jobId,
    date: v.date,
    serial_number: v.serial_number,
    batch: v.batch,
    ut_1: v.ut_1,
    ut_2: v.ut_2,
    ut_3: v.ut_3,
    pressure: v.pressure,
    notes: v.notes,
    part_id: part?.id ?? null,
    visual_pass: visual,
    band_color: band === NONE ? null : band,
    mpi_result: mpi === NONE ? null : mpi,
  };
  const check = InspectionInput.safeParse(body);
  const errors = issuesOf(check, { top: true });
  const shown = shownFrom(serverErrors, errors);
  const clearServer = (k: string) => setServerErrors((e) => (e[k] ? { ...e, [k]: "" } : e));
  const text = (k: Text) => ({
    value: v[k],
    onChange: (x: string) => {
      setV((o) => ({ ...o, [k]: x }));
      touch(k);
      clearServer(k);
    },
    onBlur: () => touch(k),
    error: shown(k),
  });

  const submit = async () => {
    if (!check.success) return setTouched(Object.fromEntries(Object.keys(errors).map((k) => [k, true])));
    if (!r && offline) {
      return await save(async () => {
        const sent = await sendOrQueue<{ message?: string }>({ kind: "inspection", jobId, body, ...offline });
        return sent.queued ? { message: QUEUED_MESSAGE, queued: true } : sent.answer;
      }, (message, sent) => (sent && "queued" in sent ? onQueued : onSaved)(message));
    }
    await save(() =>
      api<{ message?: string }>("/api/pt/inspections", {
        method: r ? "PATCH" : "POST",
        json: body,
        version: edit.version,
      }), onSaved);
  };
  edit.onResend(submit);

  return (
    <FormDialog
      title={r ? "Edit Inspection" : "New Inspection"}
      width={750}
      onClose={onClose}
      onSubmit={submit}
      onInvalidSubmit={revealAll}
      canSubmit={check.success}
      busy={busy}
      versioned={edit}
    >
      <div className="form-grid">
        <TextField label="Date" type="date" {...text("date")} isRequired autoFocus />
        <TextField label="Serial Number" {...text("serial_number")} />
        <TextField label="Batch" {...text("batch")} />
        <div className="grid-span-all">
          <ComboBox
            label="Part"
            selected={part}
            onChange={(p) => {
              pick("part_id")(p);
              clearServer("part_id");
            }}
            load={loadParts}
            debounceMs={300}
            error={serverErrors.part_id}
          />
        </div>
      </div>
      <div className="form-grid form-grid-narrow">
        <TextField label="UT 1" type="number" {...text("ut_1")} />
        <TextField label="UT 2" type="number" {...text("ut_2")} />
        <TextField label="UT 3" type="number" {...text("ut_3")} />
        <TextField label="Pressure" type="number" {...text("pressure")} />
      </div>
      <div className="form-grid">
        <Select
          label="Band Color"
          options={BAND_OPTIONS}
          value={band}
          onChange={(x) => {
            pick("band_color")(x);
            clearServer("band_color");
          }}
          error={shown("band_color") || serverErrors.band_color}
        />
        <Select
          label="MPI Result"
          options={MPI_OPTIONS}
          value={mpi}
          onChange={(x) => {
            pick("mpi_result")(x);
            clearServer("mpi_result");
          }}
          error={shown("mpi_result") || serverErrors.mpi_result}
        />
      </div>
      <PassFailField label="Pass Visual?" value={visual} onChange={pick("visual_pass")} />
      <TextField label="Notes" multiline rows={3} {...text("notes")} />
    </FormDialog>
  );
}
