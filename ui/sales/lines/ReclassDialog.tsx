import { useEffect, useRef, useState } from "react";
import { FormDialog, useFormSave } from "../../components/FormDialog.tsx";
import { api } from "../../lib/api.ts";
import { showError } from "../../lib/events.ts";
import { fromZonedInput, toZonedInput } from "../../../lib/format.ts";
import { useTimeZone } from "../../lib/time_zone.tsx";
import { DATES_MESSAGE } from "../../../api/sales/lines/reclass_schemas.ts";
import type { InventoryRowOut } from "../../../api/sales/inventory_rows/schemas.ts";
import type { DialogProps } from "../tickets/detail/types.ts";
import { EMPTY, planReclass, type RowState } from "./reclass_plan.ts";
import { ReclassRow } from "./ReclassRow.tsx";

/**
 * Reclass: moves checked-in quantity of each line's inventory row to another serial number of the
 * same business unit and inventory type with room for it (the picker offers only those: never a charge
 * code, nor a Serialized serial already holding 1). One row
 * per line that is not a charge code; a row whose line has nothing checked in, or nothing left to
 * reclass, is disabled with the spec's hint. Only rows with a quantity are sent, each needing a date
 * (else the alert, and the dialog is cancelled).
 */
export function ReclassDialog({ ticket, lines, onClose, onDone }: DialogProps) {
  // The typed dates are the company's wall clock; the API takes UTC.
  const timeZone = useTimeZone();
  const utcMinute = (value: string) => fromZonedInput(value.slice(0, 16), timeZone);
  const rows = lines.filter((l) => l.sales_inventory.item.inventory_type !== "Charge Code");
  // Each row's date starts at now on the company's clock (the user may change it).
  const [opened] = useState(() => toZonedInput(new Date().toISOString(), timeZone));
  const [state, setState] = useState<Record<number, RowState>>({});
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  // Each line's own stock row (its unit, type and serial decide the picker's targets).
  const [sources, setSources] = useState<Record<number, InventoryRowOut>>({});
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
      setSources(Object.fromEntries(res.results.map((r) => [r.id, r])));
    }).catch((e) => {
      if ((e as Error).name !== "AbortError") showError(e);
    });
    return () => ac.abort();
  }, [inventoryIds]);

  const change = (id: number, patch: Partial<RowState>) => {
    setState((s) => ({ ...s, [id]: { ...(s[id] ?? { ...EMPTY, date: opened }), ...patch } }));
    setErrors({});
  };
  const touch = (k: string) => setTouched((t) => (t[k] ? t : { ...t, [k]: true }));
  const serverError = (id: number) => (field: string) => {
    const i = sent.current.indexOf(id);
    return i < 0 ? undefined : errors[`rows.${i}.${field}`];
  };

  const plan = planReclass(rows, state, { ...EMPTY, date: opened });
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
            {plan.map((p) => (
              <ReclassRow
                key={p.line.id}
                plan={p}
                source={sources[p.line.inventory_id]}
                change={(patch) => change(p.line.id, patch)}
                touched={touched}
                touch={touch}
                serverError={serverError(p.line.id)}
              />
            ))}
          </tbody>
        </table>
      </div>
    </FormDialog>
  );
}
