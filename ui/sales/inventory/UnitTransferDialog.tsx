import { useState } from "react";
import { Button, Form } from "react-aria-components";
import { Dialog } from "../../primitives/Dialog.tsx";
import { Confirm } from "../../primitives/Confirm.tsx";
import { TextField } from "../../primitives/TextField.tsx";
import { ComboBox, type ComboOption } from "../../primitives/ComboBox.tsx";
import { api, fieldErrors } from "../../lib/api.ts";
import { showError } from "../../lib/events.ts";
import { formatNumber } from "../../../lib/format.ts";
import {
  exceedsMessage,
  POSITIVE_MESSAGE,
  REQUIRED,
  WHOLE_MESSAGE,
} from "../../../api/sales/inventory/schemas.ts";
import { loadBusinessUnits } from "./InventoryForm.tsx";
import type { InventoryRow } from "./types.ts";

/** Which row a dialog acts on: serial number, item and business unit (and one more fact). */
export function RowSummary({ row, extra }: { row: InventoryRow; extra?: [string, string] }) {
  return (
    <div className="row-details" style={{ marginBottom: 12 }}>
      <dl>
        <dt>Serial Number</dt>
        <dd>{row.serial_number || "None"}</dd>
        <dt>Item</dt>
        <dd>{[row.item.item_number, row.item.item_description].filter(Boolean).join(" - ")}</dd>
        <dt>Business Unit</dt>
        <dd>{row.business_unit.name}</dd>
        {extra && (
          <>
            <dt>{extra[0]}</dt>
            <dd>{extra[1]}</dd>
          </>
        )}
      </dl>
    </div>
  );
}

/** The transfer quantity's message: required, positive, whole and not above what is available. */
export function unitQuantityProblem(text: string, available: number): string | undefined {
  if (text.trim() === "") return REQUIRED;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) return POSITIVE_MESSAGE;
  if (!Number.isInteger(n)) return WHOLE_MESSAGE;
  return n > available ? exceedsMessage(available) : undefined;
}

/**
 * Business Unit Transfer: a quantity (at most what is available) and another business unit, then
 * the confirmation 'Are you sure you want to make this transfer?'. The server moves the stock to
 * the same item and serial number in the target unit, making that row when absent.
 */
export function UnitTransferDialog({ row, onClose, onSaved }: {
  row: InventoryRow;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const available = row.quantity_available;
  const [quantity, setQuantity] = useState("");
  const [unit, setUnit] = useState<ComboOption | null>(null);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  const issues: Record<string, string | undefined> = {
    quantity: unitQuantityProblem(quantity, available),
    to_business_unit_id: unit ? undefined : REQUIRED,
  };
  const valid = !issues.quantity && !issues.to_business_unit_id;
  const shown = (k: string) => serverErrors[k] || (touched[k] ? issues[k] : undefined);
  const touch = (k: string) => setTouched((t) => (t[k] ? t : { ...t, [k]: true }));
  // The row's own unit is not a target.
  const loadTargets = (text: string, signal: AbortSignal) =>
    loadBusinessUnits(text, signal).then((units) => units.filter((u) => u.id !== row.business_unit.id));

  const transfer = async () => {
    setBusy(true);
    try {
      const res = await api<{ message: string }>("/api/sales/inventory/business-unit-transfer", {
        method: "POST",
        json: { inventory_id: row.id, to_business_unit_id: unit?.id, quantity: Number(quantity) },
      });
      onSaved(res.message);
    } catch (e) {
      setConfirming(false);
      setServerErrors(fieldErrors(e));
      showError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Dialog title="Transfer quantity to other Business Unit" isOpen onClose={onClose}>
        <RowSummary row={row} extra={["Available", formatNumber(available)]} />
        <Form
          onSubmit={(e) => {
            e.preventDefault();
            if (valid) setConfirming(true);
            else setTouched({ quantity: true, to_business_unit_id: true });
          }}
        >
          <TextField
            label="Quantity"
            type="number"
            value={quantity}
            onChange={(q) => {
              setQuantity(q);
              touch("quantity");
              setServerErrors({});
            }}
            onBlur={() => touch("quantity")}
            error={shown("quantity")}
            isRequired
            autoFocus
          />
          <ComboBox
            label="Business Unit"
            selected={unit}
            onChange={(u) => {
              setUnit(u);
              touch("to_business_unit_id");
              setServerErrors({});
            }}
            onBlur={() => touch("to_business_unit_id")}
            load={loadTargets}
            error={shown("to_business_unit_id")}
            isRequired
          />
          <div className="dialog-actions">
            <Button className="btn" onPress={onClose}>Cancel</Button>
            <Button type="submit" className="btn btn-primary" isDisabled={!valid || busy}>Transfer</Button>
          </div>
        </Form>
      </Dialog>
      <Confirm
        isOpen={confirming}
        question="Are you sure you want to make this transfer?"
        detail={`${formatNumber(Number(quantity))} from ${row.business_unit.name} to ${unit?.name}`}
        warning={null}
        danger={false}
        onCancel={() => setConfirming(false)}
        onConfirm={transfer}
        busy={busy}
        busyLabel="Transferring..."
      />
    </>
  );
}
