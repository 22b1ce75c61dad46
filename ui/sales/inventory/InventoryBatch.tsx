import { useState } from "react";
import { BatchUpload } from "../../components/BatchUpload.tsx";
import { BatchPreviewTable } from "../../components/BatchPreviewTable.tsx";
import { ComboBox, type ComboOption } from "../../primitives/ComboBox.tsx";
import {
  BATCH_QUANTITY_RULE,
  BUSINESS_UNIT_REQUIRED,
  INVENTORY_BATCH_COLUMNS,
  type InventoryBatchPreview,
} from "../../../api/sales/inventory/schemas.ts";
import { INVENTORY_BATCH_LABELS } from "../../../api/sales/inventory/batch_labels.ts";
import { loadBusinessUnits } from "./InventoryForm.tsx";

const COLUMNS = INVENTORY_BATCH_COLUMNS.map((key) => ({ key, label: INVENTORY_BATCH_LABELS[key] }));
/** The inventory download's other headers: known, and ignored (the unit is chosen in the dialog). */
const ALIASES: Record<string, string> = Object.fromEntries(
  [
    "Item",
    "Inv. Description",
    "Business Unit",
    "Quantity Out (Tickets)",
    "Quantity Out (Location)",
    "Quantity Available",
    "Locations",
    "Hidden",
    "Last Updated By",
    "Updated At",
  ].map((h) => [h, ""]),
);

const count = (n: number) => n.toLocaleString("en-US");
const NUM = { textAlign: "right" } as const;

/** What the upload will do, row by row: the count in stock now and after (a Quantity sets it). */
function Preview({ answer }: { answer: InventoryBatchPreview }) {
  return (
    <BatchPreviewTable
      id="batch-preview-title"
      title={`Check the counts: ${answer.message}`}
      head={
        <>
          <th>Row</th>
          <th>Item / Serial</th>
          <th style={NUM}>In stock</th>
          <th style={NUM}>After</th>
        </>
      }
    >
      {answer.rows.map((r) => (
        <tr key={r.n}>
          <td>{r.n}</td>
          <td>
            {r.item_number}
            {r.serial_number && <div className="field-note">{r.serial_number}</div>}
          </td>
          <td style={NUM}>{r.before === null ? "New" : count(r.before)}</td>
          <td style={NUM}>{count(r.after)}</td>
        </tr>
      ))}
    </BatchPreviewTable>
  );
}

const PREVIEW = {
  endpoint: "/api/sales/inventory/batch/preview",
  render: (answer: unknown) => <Preview answer={answer as InventoryBatchPreview} />,
};

/**
 * The inventory batch upload: the spec's columns, every row going to the Business Unit chosen above
 * the grid (required: Upload stays disabled without it). Upload shows each row's count before and after
 * (POST /api/sales/inventory/batch/preview); Save sends it (POST /api/sales/inventory/batch).
 */
export function InventoryBatch(
  { onClose, onSaved }: { onClose: () => void; onSaved: (message: string) => void },
) {
  const [unit, setUnit] = useState<ComboOption | null>(null);
  const [touched, setTouched] = useState(false);
  return (
    <BatchUpload
      title="Batch Upload"
      columns={COLUMNS}
      aliases={ALIASES}
      endpoint="/api/sales/inventory/batch"
      extra={{ business_unit_id: unit?.id ?? null }}
      canUpload={unit !== null}
      preview={PREVIEW}
      extraFields={
        <>
          <div className="form-grid" style={{ maxWidth: 420, marginTop: 8 }}>
            <ComboBox
              label="Business Unit"
              selected={unit}
              onChange={(u) => {
                setUnit(u);
                setTouched(true);
              }}
              onBlur={() => setTouched(true)}
              load={loadBusinessUnits}
              error={touched && !unit ? BUSINESS_UNIT_REQUIRED : undefined}
              isRequired
            />
          </div>
          <p className="field-note">{BATCH_QUANTITY_RULE}</p>
        </>
      }
      onClose={onClose}
      onSaved={onSaved}
    />
  );
}
