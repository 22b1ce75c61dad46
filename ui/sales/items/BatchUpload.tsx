import { useMemo, useState } from "react";
import { Button } from "react-aria-components";
import { Dialog } from "../../primitives/Dialog.tsx";
import { TextField } from "../../primitives/TextField.tsx";
import { api, ApiError, type FieldError } from "../../lib/api.ts";
import { setLoading, showError } from "../../lib/events.ts";
import { ITEM_BATCH_COLUMNS, type ItemBatchResult } from "../../../api/sales/items/schemas.ts";
import { parsePastedRows } from "./paste.ts";

const LABELS: Record<(typeof ITEM_BATCH_COLUMNS)[number], string> = {
  item_number: "Item Number",
  item_description: "Item",
  rate: "Rate",
  item_category: "Category",
  units: "Units",
  type: "Item Type",
  isTaxable: "Taxable",
  isExpendable: "Expendable",
  isService: "Service",
  inventory_type: "Inventory Type",
};

/** Header texts understood besides the column names: the page's and the download's ("" = ignored). */
export const HEADER_ALIASES: Record<string, string> = {
  ...Object.fromEntries(Object.entries(LABELS).map(([k, label]) => [label, k])),
  "Item Description": "item_description",
  "Type": "type",
  "Notes": "",
};

const errorKey = (row: number, column: string) => `rows.${row}.${column}`;

/**
 * Batch Upload (max width 1200): rows pasted from a spreadsheet (tab-separated; the first line may
 * be a header naming the columns) are previewed, then sent whole to POST /api/sales/items/batch.
 * The server checks every row before saving any; its errors are listed and their cells marked, row
 * numbers counted as pasted (after a header line). Editing the text clears them.
 */
export function BatchUpload({ onClose, onSaved }: {
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const [text, setText] = useState("");
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [detail, setDetail] = useState("");
  const [busy, setBusy] = useState(false);
  const rows = useMemo(() => parsePastedRows(text, ITEM_BATCH_COLUMNS, HEADER_ALIASES), [text]);
  const kept = rows.map((r, i) => ({ r, n: i + 1 })).filter(({ r }) => (r.item_number ?? "").trim() !== "");
  const bad = new Map(errors.map((e) => [e.path, e.message]));

  const upload = async () => {
    setBusy(true);
    setLoading(true);
    try {
      const res = await api<ItemBatchResult>("/api/sales/items/batch", { method: "POST", json: rows });
      onSaved(res.message);
    } catch (e) {
      if (e instanceof ApiError && e.errors.length) {
        setErrors(e.errors);
        setDetail(e.detail);
      }
      showError(e);
    } finally {
      setBusy(false);
      setLoading(false);
    }
  };

  return (
    <Dialog title="Batch Upload" isOpen onClose={onClose} width={1200}>
      <p className="field-note">
        Paste rows copied from a spreadsheet. Columns in this order, or a first row naming them:{" "}
        {ITEM_BATCH_COLUMNS.join(", ")}. Rows without an item number are skipped; existing item numbers are
        updated.
      </p>
      <TextField
        label="Rows from a spreadsheet"
        value={text}
        onChange={(t) => {
          setText(t);
          setErrors([]);
          setDetail("");
        }}
        multiline="code"
        rows={6}
        autoFocus
      />
      {errors.length > 0 && (
        <div className="alert alert-error" role="alert">
          <strong>{detail}</strong>
          <ul>{errors.map((e) => <li key={e.path}>{e.message}</li>)}</ul>
        </div>
      )}
      <p className="field-note" aria-live="polite">
        {kept.length === 1 ? "1 row to upload" : `${kept.length} rows to upload`}
      </p>
      {kept.length > 0 && (
        <div className="table-wrap" style={{ maxHeight: 320, overflow: "auto" }}>
          <table className="data" aria-label="Rows to upload">
            <thead>
              <tr>
                <th scope="col">Row</th>
                {ITEM_BATCH_COLUMNS.map((c) => <th key={c} scope="col">{LABELS[c]}</th>)}
              </tr>
            </thead>
            <tbody>
              {kept.map(({ r, n }) => (
                <tr key={n}>
                  <td>{n}</td>
                  {ITEM_BATCH_COLUMNS.map((c) => {
                    const message = bad.get(errorKey(n, c));
                    return (
                      <td
                        key={c}
                        title={message}
                        style={message
                          ? { background: "#fdecea", outline: "2px solid var(--danger)" }
                          : undefined}
                      >
                        <span className="cell-clip">{r[c] ?? ""}</span>
                        {message && <span className="sr-only">{` (${message})`}</span>}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="dialog-actions">
        <Button className="btn" onPress={onClose}>Cancel</Button>
        <Button className="btn btn-primary" onPress={upload} isDisabled={busy || kept.length === 0}>
          Upload
        </Button>
      </div>
    </Dialog>
  );
}
