import { useState } from "react";
import { BatchUpload } from "../../components/BatchUpload.tsx";
import { ComboBox, type ComboOption } from "../../primitives/ComboBox.tsx";
import {
  BUSINESS_UNIT_REQUIRED,
  INVENTORY_BATCH_COLUMNS,
  type InventoryBatchColumn,
} from "../../../api/sales/inventory/schemas.ts";
import { loadBusinessUnits } from "./InventoryForm.tsx";

const LABELS: Record<InventoryBatchColumn, string> = {
  serial_number: "Serial Number",
  item_number: "Item Number",
  status: "Status",
  quantity: "Quantity",
  category: "Category",
  location: "Location",
  purchase_date: "Purchase Date",
  purchase_price: "Purchase Price",
  manufacturer: "Manufacturer",
};
const COLUMNS = INVENTORY_BATCH_COLUMNS.map((key) => ({ key, label: LABELS[key] }));
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

/**
 * The inventory batch upload: the spec's columns, every row going to the Business Unit chosen above
 * the grid (required: Upload stays disabled without it). POST /api/sales/inventory/batch.
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
      extraFields={
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
          <p className="field-note">
            A row whose item, serial number and business unit are already in stock is updated: its Quantity
            <strong>replaces</strong>{" "}
            the stored count (100 and an upload of 20 make 20, not 120). Any other row is added as new stock.
          </p>
        </div>
      }
      onClose={onClose}
      onSaved={onSaved}
    />
  );
}
