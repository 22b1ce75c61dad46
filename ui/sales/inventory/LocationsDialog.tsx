import { useState } from "react";
import { Button, Form } from "react-aria-components";
import { Dialog } from "../../primitives/Dialog.tsx";
import { TextField } from "../../primitives/TextField.tsx";
import { Select } from "../../primitives/Select.tsx";
import { api, fieldErrors } from "../../lib/api.ts";
import { showError, showSnack } from "../../lib/events.ts";
import { formatNumber } from "../../../lib/format.ts";
import { BASE } from "../../../api/sales/inventory/schemas.ts";
import { LocationsTable, placesOf } from "./columns.tsx";
import { RowSummary, unitQuantityProblem } from "./UnitTransferDialog.tsx";
import type { InventoryRow } from "./types.ts";

/**
 * View Locations: the row's stock at 'Base' and at each location of its business unit, and the
 * location transfer: a source holding some, a destination (another of the unit's locations or
 * 'Base') and a quantity above 0 and not above what the source holds. The dialog stays open with the
 * new quantities after each transfer; the table behind it is refetched. A unit without locations
 * gets a link to the business units page instead.
 */
export function LocationsDialog({ row: initial, onClose, onChanged }: {
  row: InventoryRow;
  onClose: () => void;
  onChanged: () => void;
}) {
  const [row, setRow] = useState(initial);
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const [quantity, setQuantity] = useState("");
  // Quantity shows its message once typed in; every field shows its own after a submit attempt.
  const [typed, setTyped] = useState(false);
  const [touched, setTouched] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const unitLocations = row.business_unit.locations;
  const sources = placesOf(row).filter((p) => p.quantity > 0);
  const held = sources.find((p) => p.name === from)?.quantity ?? 0;
  const targets = [BASE, ...unitLocations].filter((n) => n !== from);
  const quantityIssue = from ? unitQuantityProblem(quantity, held) : undefined;
  const valid = !!from && !!to && !quantityIssue;
  const movable = unitLocations.length > 0 || row.locations.length > 0;
  const option = (name: string, n?: number) => ({
    id: name,
    label: n === undefined ? name : `${name} (${formatNumber(n)})`,
  });

  const submit = async () => {
    if (!valid) return setTouched(true);
    setBusy(true);
    try {
      const res = await api<{ message: string; inventory: InventoryRow }>(
        "/api/sales/inventory/location-transfer",
        {
          method: "POST",
          json: { inventory_id: row.id, fromLocation: from, toLocation: to, quantity: Number(quantity) },
        },
      );
      showSnack("success", res.message);
      setRow(res.inventory);
      setFrom(null);
      setTo(null);
      setQuantity("");
      setTyped(false);
      setTouched(false);
      onChanged();
    } catch (e) {
      setServerErrors(fieldErrors(e));
      showError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog title="Transfer quantity to other Location within current Business Unit" isOpen onClose={onClose}>
      <RowSummary row={row} />
      <LocationsTable row={row} label="Quantities by location" />
      {unitLocations.length === 0 && (
        <p>
          {row.business_unit.name} has no locations.{" "}
          <a href="/sales/business-units">Add locations on the Business Units page</a>.
        </p>
      )}
      {movable && (
        <Form
          style={{ marginTop: 12 }}
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <div className="form-grid">
            <Select
              label="From Location"
              options={sources.map((p) => option(p.name, p.quantity))}
              value={from}
              onChange={(f) => {
                setFrom(f);
                if (to === f) {
                  setTo(null);
                }
                setServerErrors({});
              }}
              error={serverErrors.fromLocation || (touched && !from ? "Required" : undefined)}
              isRequired
            />
            <Select
              label="To Location"
              options={targets.map((n) =>
                option(n)
              )}
              value={to}
              onChange={(t) => {
                setTo(t);
                setServerErrors({});
              }}
              error={serverErrors.toLocation || (touched && !to ? "Required" : undefined)}
              isRequired
            />
            <TextField
              label="Quantity"
              type="number"
              value={quantity}
              onChange={(q) => {
                setQuantity(q);
                setTyped(true);
                setServerErrors({});
              }}
              error={serverErrors.quantity || (typed || touched ? quantityIssue : undefined)}
              isRequired
            />
          </div>
          <div className="dialog-actions">
            <Button className="btn" onPress={onClose}>Close</Button>
            <Button type="submit" className="btn btn-primary" isDisabled={!valid || busy}>
              Submit Location Transfer
            </Button>
          </div>
        </Form>
      )}
      {!movable && (
        <div className="dialog-actions">
          <Button className="btn" onPress={onClose}>Close</Button>
        </div>
      )}
    </Dialog>
  );
}
