import { useEffect, useRef, useState } from "react";
import { FieldError, Input, Label, TextField as AriaTextField } from "react-aria-components";
import { FormDialog, useFormSave } from "../../components/FormDialog.tsx";
import { ComboBox, type ComboOption } from "../../primitives/ComboBox.tsx";
import { TextField } from "../../primitives/TextField.tsx";
import { api } from "../../lib/api.ts";
import { showError } from "../../lib/events.ts";
import { formatNumber, fromZonedInput } from "../../../lib/format.ts";
import { useTimeZone } from "../../lib/time_zone.tsx";
import {
  checkedInMessage,
  DATES_MESSAGE,
  NO_CHECK_IN,
  NONE_LEFT,
} from "../../../api/sales/lines/reclass_schemas.ts";
import { inventoryLabel, type InventoryRowOut } from "../../../api/sales/inventory_rows/schemas.ts";
import { logFigures } from "./lines.ts";
import type { DialogProps } from "../ticket/types.ts";

const REQUIRED = "Required";
const POSITIVE = "Must be positive";
const WHOLE = "Must be a whole number";

/** The quantity's message: blank is "not reclassed"; else positive, whole and within what is left. */
export function reclassQuantityProblem(text: string, left: number): string | undefined {
  if (text.trim() === "") return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) return POSITIVE;
  if (!Number.isInteger(n)) return WHOLE;
  return n > left ? checkedInMessage(left) : undefined;
}

interface RowState {
  quantity: string;
  to: ComboOption | null;
  date: string;
}
const EMPTY: RowState = { quantity: "", to: null, date: "" };

/**
 * Reclass: moves checked-in quantity of each line's inventory row to another serial number of the
 * same business unit and inventory type (the picker offers only those; never a charge code). One row per line that is not a charge code; a row whose line has nothing
 * checked in, or nothing left to reclass, is disabled with the spec's hint. Only rows with a
 * quantity are sent, each needing a date (else the alert, and the dialog is cancelled).
 */
export function ReclassDialog({ ticket, lines, onClose, onDone }: DialogProps) {
  // The typed dates are the company's wall clock; the API takes UTC.
  const timeZone = useTimeZone();
  const utcMinute = (value: string) => fromZonedInput(value.slice(0, 16), timeZone);
  const rows = lines.filter((l) => l.sales_inventory.item.inventory_type !== "Charge Code");
  const [state, setState] = useState<Record<number, RowState>>({});
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  // The business unit of each line's row (the picker offers rows of that unit only).
  const [units, setUnits] = useState<Record<number, number>>({});
  const { busy, errors, setErrors, save } = useFormSave();
  // The lines of the last request, in order: the server's `rows.{i}.…` errors are by that index.
  const sent = useRef<number[]>([]);

  const inventoryIds = [...new Set(rows.map((l) => l.inventory_id))].join(",");
  useEffect(() => {
    if (!inventoryIds) return;
    const ac = new AbortController();
    api<{ results: InventoryRowOut[] }>("/api/sales/inventory-rows", {
      query: { ids: inventoryIds },
      signal: ac.signal,
    }).then((res) => {
      setUnits(Object.fromEntries(res.results.map((r) => [r.id, r.business_unit.id])));
    }).catch((e) => {
      if ((e as Error).name !== "AbortError") showError(e);
    });
    return () => ac.abort();
  }, [inventoryIds]);

  const rowOf = (id: number) => state[id] ?? EMPTY;
  const change = (id: number, patch: Partial<RowState>) => {
    setState((s) => ({ ...s, [id]: { ...(s[id] ?? EMPTY), ...patch } }));
    setErrors({});
  };
  const touch = (k: string) => setTouched((t) => (t[k] ? t : { ...t, [k]: true }));
  const serverError = (id: number, field: string) => {
    const i = sent.current.indexOf(id);
    return i < 0 ? undefined : errors[`rows.${i}.${field}`];
  };

  const plan = rows.map((line) => {
    const { checkedIn, reclassed } = logFigures(line);
    const left = checkedIn - reclassed;
    const hint = checkedIn <= 0 ? NO_CHECK_IN : left <= 0 ? NONE_LEFT : undefined;
    const r = rowOf(line.id);
    const quantity = hint ? undefined : reclassQuantityProblem(r.quantity, left);
    const given = !hint && r.quantity.trim() !== "";
    const to = given && !r.to ? REQUIRED : undefined;
    return { line, left, hint, r, given, issues: { quantity, to } };
  });
  const chosen = plan.filter((p) => p.given);
  const valid = chosen.length > 0 && chosen.every((p) => !p.issues.quantity && !p.issues.to);

  const submit = () => {
    if (!valid) {
      setTouched(
        Object.fromEntries(plan.flatMap((p) => [[`q${p.line.id}`, true], [`to${p.line.id}`, true]])),
      );
      return;
    }
    if (chosen.some((p) => !utcMinute(p.r.date))) {
      globalThis.alert(DATES_MESSAGE);
      onClose();
      return;
    }
    sent.current = chosen.map((p) => p.line.id);
    save(
      () =>
        api<{ message: string }>("/api/sales/sales/reclass", {
          method: "POST",
          json: {
            ticket_id: ticket.id,
            rows: chosen.map((p) => ({
              sale_id: p.line.id,
              reclass_date: utcMinute(p.r.date),
              from_inventory_id: p.line.inventory_id,
              to_inventory_id: p.r.to!.id,
              reclass_quantity: Number(p.r.quantity),
            })),
          },
        }),
      (message) => onDone(message),
    );
  };

  return (
    <FormDialog
      title="Reclass"
      width={1200}
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Reclass"
      canSubmit={valid}
      busy={busy}
    >
      <div className="table-wrap">
        <table className="data" aria-label="Reclass rows">
          <thead>
            <tr>
              <th scope="col">From (Serial #)</th>
              <th scope="col">To (Serial #)</th>
              <th scope="col">Reclass Quantity</th>
              <th scope="col">Date</th>
            </tr>
          </thead>
          <tbody>
            {plan.length === 0 && (
              <tr>
                <td className="empty" colSpan={4}>No line items to reclass</td>
              </tr>
            )}
            {plan.map(({ line, left, hint, r, issues }) => {
              const inv = line.sales_inventory;
              const serial = inv.serial_number;
              const unit = units[line.inventory_id];
              const qKey = `q${line.id}`;
              const toKey = `to${line.id}`;
              const load = async (text: string, signal: AbortSignal): Promise<ComboOption[]> => {
                const res = await api<{ results: InventoryRowOut[] }>("/api/sales/inventory-rows", {
                  query: {
                    business_unit_id: unit,
                    inventory_type: inv.item.inventory_type,
                    search_multi: text,
                  },
                  signal,
                });
                return res.results
                  .filter((o) => o.serial_number.toLowerCase() !== serial.toLowerCase())
                  .map((o) => ({ id: o.id, name: inventoryLabel(o) }));
              };
              return (
                <tr key={line.id} data-line={line.id}>
                  <td>
                    <strong>{serial || "(no serial)"}</strong>
                    <div>{[inv.item.item_number, inv.item.item_description].filter(Boolean).join(" | ")}</div>
                    <div className="field-hint">
                      {hint ?? `Checked in, not reclassed: ${formatNumber(left)}`}
                    </div>
                  </td>
                  <td style={{ minWidth: 320 }}>
                    <ComboBox
                      label="To (Serial #)"
                      selected={r.to}
                      onChange={(to) => {
                        change(line.id, { to });
                        touch(toKey);
                      }}
                      onBlur={() => touch(toKey)}
                      load={load}
                      isDisabled={!!hint || !unit}
                      error={serverError(line.id, "to_inventory_id") ||
                        (touched[toKey] ? issues.to : undefined)}
                    />
                  </td>
                  <td>
                    <TextField
                      label="Reclass Quantity"
                      type="number"
                      value={r.quantity}
                      onChange={(quantity) => {
                        change(line.id, { quantity });
                        touch(qKey);
                      }}
                      onBlur={() => touch(qKey)}
                      isDisabled={!!hint}
                      error={serverError(line.id, "reclass_quantity") ||
                        (touched[qKey] ? issues.quantity : undefined)}
                    />
                  </td>
                  <td>
                    <AriaTextField
                      className="field"
                      type="datetime-local"
                      value={r.date}
                      onChange={(date) => change(line.id, { date })}
                      isDisabled={!!hint}
                      isInvalid={!!serverError(line.id, "reclass_date")}
                      validationBehavior="aria"
                    >
                      <Label>Date</Label>
                      <Input />
                      <FieldError className="field-error">{serverError(line.id, "reclass_date")}</FieldError>
                    </AriaTextField>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </FormDialog>
  );
}
