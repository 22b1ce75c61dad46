import { type ReactNode, useId, useMemo, useRef, useState } from "react";
import { Button } from "react-aria-components";
import { Dialog } from "../primitives/Dialog.tsx";
import { ApiError, type FieldError } from "../lib/api.ts";
import { type BatchColumn, errorMarks, gridRows, isBlankRow, pasteBlock, splitTsv } from "../lib/paste.ts";
import { BatchGrid, type CellAt } from "./BatchGrid.tsx";
import { sendWithProgress } from "./batch_send.ts";
import { Icon } from "./icons.tsx";

export type { BatchColumn };

export interface BatchUploadProps {
  title: string;
  /** the grid's columns, in order: the keys the endpoint reads, the labels shown */
  columns: readonly BatchColumn[];
  /** more header texts naming a column key ("" = a known column that is ignored) */
  aliases?: Record<string, string>;
  /** POST target: answers `{message}`, or 422 with errors at `rows.<n>.<column>` (n 1-based) */
  endpoint: string;
  /** sent beside the rows as `{...extra, rows}`; without it the body is the bare list of rows */
  extra?: Record<string, unknown> | undefined;
  /** fields shown above the grid (a business unit for every row, ...) */
  extraFields?: ReactNode;
  /** false keeps Upload disabled (a required extra field is empty) */
  canUpload?: boolean;
  /**
   * A check before saving: Upload sends the same body to `endpoint` (whose 422 marks the grid as the
   * upload's would) and shows its answer, drawn by `render`, in place of the grid, with Back and Save.
   */
  preview?: { endpoint: string; render: (answer: unknown) => ReactNode };
  onClose: () => void;
  onSaved: (message: string) => void;
}

const START_ROWS = 10;
const MORE_ROWS = 10;
/** Above this many rows the progress says how many are going. */
const MANY = 1000;
const FILE_TYPES = ".xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

const blankRows = (n: number, width: number) =>
  Array.from({ length: n }, () => Array<string>(width).fill(""));
const plural = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "row" : "rows"}`;

/**
 * Batch Upload (max width 1200): rows typed or pasted into the grid, or read from a chosen .xlsx or
 * .csv file (POST /api/sales/batch/parse), are sent whole to `endpoint` with upload progress. The
 * server checks every row before saving any; its errors are listed above the grid and their cells
 * marked, by the grid's own row numbers (rows are sent up to the last filled one, blank ones too).
 */
export function BatchUpload(props: BatchUploadProps) {
  const { columns, aliases = {}, canUpload = true } = props;
  const fileId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const primary = useRef<HTMLButtonElement>(null);
  const [grid, setGrid] = useState(() => blankRows(START_ROWS, columns.length));
  const [alert, setAlert] = useState<{ detail: string; errors: FieldError[] } | null>(null);
  const [progress, setProgress] = useState<{ label: string; percent: number | null } | null>(null);
  const [reveal, setReveal] = useState<CellAt>();
  // The preview of the rows and extra fields it was asked for: a changed extra field (another business
  // unit) shows the grid again, to be checked anew.
  const extraKey = JSON.stringify(props.extra ?? null);
  const [checked, setPreviewed] = useState<{ node: ReactNode; extraKey: string } | null>(null);
  const previewed = checked?.extraKey === extraKey ? checked.node : null;
  const busy = progress !== null;
  const filled = useMemo(() => grid.filter((r) => !isBlankRow(r)).length, [grid]);

  const marks = useMemo(() => errorMarks(alert?.errors ?? [], columns), [alert, columns]);

  const fail = (e: unknown) => {
    const err = e instanceof ApiError
      ? e
      : new ApiError(0, (e as Error)?.message || "Oops something went wrong!");
    setAlert({ detail: err.detail, errors: err.errors });
    const first = errorMarks(err.errors, columns).first;
    if (first) setReveal(first);
  };

  const edit = (at: CellAt, value: string) => {
    setGrid((g) => {
      const out = g.slice();
      out[at.row] = g[at.row].slice();
      out[at.row][at.column] = value;
      return out;
    });
    const path = `rows.${at.row + 1}.${columns[at.column].key}`;
    setAlert((a) => {
      if (!a?.errors.some((e) => e.path === path)) return a;
      const errors = a.errors.filter((e) => e.path !== path);
      return errors.length ? { ...a, errors } : null;
    });
  };

  const paste = (at: CellAt, text: string) => {
    const lines = splitTsv(text);
    if (!lines.length) return;
    // One cell copied from a spreadsheet comes with a line end: it is an edit of this cell.
    if (lines.length === 1 && lines[0].length === 1) return edit(at, lines[0][0]);
    setGrid((g) => pasteBlock(g, at, lines, columns, aliases));
    setAlert(null);
  };

  const readFile = async (file: File | undefined) => {
    if (!file) return;
    const label = `Reading ${file.name}...`;
    const form = new FormData();
    form.set("file", file);
    setProgress({ label, percent: 0 });
    try {
      const { rows } = await sendWithProgress<{ rows: string[][] }>(
        "/api/sales/batch/parse",
        form,
        (percent) => setProgress({ label, percent }),
      );
      const read = pasteBlock([], { row: 0, column: 0 }, rows, columns, aliases);
      setGrid([...read, ...blankRows(Math.max(0, START_ROWS - read.length), columns.length)]);
      setAlert(
        read.some((r) => !isBlankRow(r))
          ? null
          : { detail: `${file.name} has no rows to upload`, errors: [] },
      );
    } catch (e) {
      fail(e);
    } finally {
      setProgress(null);
      if (fileInput.current) fileInput.current.value = "";
    }
  };

  const upload = async (check: boolean) => {
    const rows = gridRows(grid, columns);
    const body = props.extra === undefined ? rows : { ...props.extra, rows };
    const verb = check ? "Checking" : "Uploading";
    const label = filled > MANY ? `${verb} ${plural(filled)}...` : `${verb}...`;
    setProgress({ label, percent: 0 });
    setAlert(null);
    try {
      const res = await sendWithProgress<{ message: string }>(
        check ? props.preview!.endpoint : props.endpoint,
        JSON.stringify(body),
        (percent) => setProgress({ label, percent }),
      );
      if (check) setPreviewed({ node: props.preview!.render(res), extraKey });
      else props.onSaved(res.message);
    } catch (e) {
      setPreviewed(null);
      fail(e);
    } finally {
      setProgress(null);
    }
  };

  const listed = alert?.errors.filter((e) => e.message !== alert.detail) ?? [];
  return (
    <Dialog title={props.title} isOpen onClose={busy ? undefined : props.onClose} width={1200}>
      <p className="field-note">
        Type or paste cells copied from a spreadsheet into any cell, or choose an .xlsx or .csv file. A first
        row naming the columns puts each in its place. Nothing is saved unless every row is valid.
      </p>
      {props.extraFields}
      {previewed === null && (
        <div className="batch-toolbar">
          <div className="file-control">
            <input
              ref={fileInput}
              id={fileId}
              className="file-input"
              type="file"
              accept={FILE_TYPES}
              aria-label="Choose file"
              disabled={busy}
              onChange={(e) => readFile(e.target.files?.[0])}
            />
            <label className="btn" htmlFor={fileId} aria-hidden="true" data-disabled={busy || undefined}>
              <Icon name="upload" size={20} />Choose file
            </label>
          </div>
          <Button
            className="btn"
            isDisabled={busy}
            onPress={() => setGrid((g) => [...g, ...blankRows(MORE_ROWS, columns.length)])}
          >
            <Icon name="add" size={20} />Add rows
          </Button>
          <Button
            className="btn"
            isDisabled={busy}
            onPress={() => {
              setGrid(blankRows(START_ROWS, columns.length));
              setAlert(null);
            }}
          >
            <Icon name="delete" size={20} />Clear
          </Button>
          <span className="spacer" />
          <span className="field-note" aria-live="polite">{plural(filled)} to upload</span>
        </div>
      )}
      {alert && (
        <div className="alert alert-error batch-errors" role="alert">
          <strong>{alert.detail}</strong>
          {listed.length > 0 && <ul>{listed.map((e, i) => <li key={`${e.path}-${i}`}>{e.message}</li>)}</ul>}
        </div>
      )}
      {progress && (
        <div className="batch-progress">
          <progress
            key={progress.percent === null ? "working" : "sending"}
            max={100}
            value={progress.percent ?? undefined}
            aria-label={progress.label}
          />
          <span aria-live="polite">{progress.label}</span>
          {progress.percent !== null && <span aria-hidden="true">{progress.percent}%</span>}
        </div>
      )}
      {previewed ?? (
        <BatchGrid
          columns={columns}
          grid={grid}
          errors={marks.cells}
          badRows={marks.rows}
          readOnly={busy}
          reveal={reveal}
          onEdit={edit}
          onPaste={paste}
          onAddRow={() => setGrid((g) => [...g, ...blankRows(1, columns.length)])}
        />
      )}
      <div className="dialog-actions">
        <Button className="btn" onPress={props.onClose} isDisabled={busy}>Cancel</Button>
        {previewed !== null && (
          <Button
            className="btn"
            isDisabled={busy}
            onPress={() => {
              setPreviewed(null);
              // Back goes away as it is pressed: the focus goes to Upload, not to the dialog's first field.
              requestAnimationFrame(() => primary.current?.focus());
            }}
          >
            Back
          </Button>
        )}
        {/* One button, Upload then Save: the focus stays on it when the preview comes. */}
        <Button
          ref={primary}
          className="btn btn-primary"
          onPress={() => upload(previewed === null && !!props.preview)}
          isDisabled={busy || filled === 0 || !canUpload}
        >
          {previewed !== null ? "Save" : "Upload"}
        </Button>
      </div>
    </Dialog>
  );
}
