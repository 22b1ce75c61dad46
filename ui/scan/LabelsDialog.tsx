import { useState } from "react";
import { FormDialog, useFormSave } from "../components/FormDialog.tsx";
import { Select } from "../primitives/Select.tsx";
import { download } from "../lib/api.ts";
import {
  DEFAULT_LABEL_SHEET,
  LABEL_SHEET_IDS,
  LABEL_SHEETS,
  type LabelSheetId,
} from "../../lib/label_sheets.ts";

const STOCK_KEY = "qrLabelStock";
const OPTIONS = LABEL_SHEET_IDS.map((id) => ({ id, label: LABEL_SHEETS[id].name }));

/** The stock chosen last time on this device (a printer keeps its labels), else Avery 5160. */
function lastStock(): LabelSheetId {
  const saved = globalThis.localStorage?.getItem(STOCK_KEY);
  return LABEL_SHEET_IDS.find((id) => id === saved) ?? DEFAULT_LABEL_SHEET;
}

/**
 * Print QR labels: choose the label stock, then the PDF (`endpoint` with `query` and the stock's `size`)
 * downloads, one label per serial, each QR code the serial's page (issue 13).
 */
export function LabelsDialog({ endpoint, query, what, onClose }: {
  endpoint: string;
  query: Record<string, string | number>;
  /** what is printed, e.g. "3 selected rows" */
  what: string;
  onClose: () => void;
}) {
  const [stock, setStock] = useState<LabelSheetId>(lastStock);
  const { busy, save } = useFormSave();
  const submit = () =>
    save(async () => {
      localStorage.setItem(STOCK_KEY, stock);
      await download(endpoint, { ...query, size: stock });
      return undefined;
    }, () => onClose());
  return (
    <FormDialog
      title="Print QR labels"
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Download PDF"
      canSubmit
      busy={busy}
    >
      <p className="field-note lead">QR labels for {what}: each code opens its serial number's history.</p>
      <Select
        label="Label stock"
        options={OPTIONS}
        value={stock}
        onChange={(v) => setStock(v as LabelSheetId)}
      />
    </FormDialog>
  );
}
