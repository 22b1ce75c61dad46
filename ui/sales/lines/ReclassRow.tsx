import { FieldError, Input, Label, TextField as AriaTextField } from "react-aria-components";
import { ComboBox, type ComboOption } from "../../primitives/ComboBox.tsx";
import { TextField } from "../../primitives/TextField.tsx";
import { api } from "../../lib/api.ts";
import { formatNumber } from "../../../lib/format.ts";
import type { InventoryRowOut } from "../../../api/sales/inventory_rows/schemas.ts";
import { reclassOptions } from "./row_option.ts";
import type { PlanRow, RowState } from "./reclass_plan.ts";

/**
 * One line's row of the reclass dialog: the line's serial and what is left, the target picker (rows
 * of the source's unit and inventory type that have room, each with its unit, availability and status,
 * as the line picker shows them), the quantity and the date.
 */
export function ReclassRow({ plan, source, change, touched, touch, serverError }: {
  plan: PlanRow;
  /** the line's own stock row, once fetched (the picker waits for it) */
  source: InventoryRowOut | undefined;
  change: (patch: Partial<RowState>) => void;
  touched: Record<string, boolean>;
  touch: (key: string) => void;
  serverError: (field: string) => string | undefined;
}) {
  const { line, left, hint, r, issues } = plan;
  const inv = line.sales_inventory;
  const qKey = `q${line.id}`;
  const toKey = `to${line.id}`;
  const load = async (text: string, signal: AbortSignal): Promise<ComboOption[]> => {
    if (!source) return [];
    const res = await api<{ results: InventoryRowOut[] }>("/api/sales/inventory-rows", {
      query: {
        business_unit_id: source.business_unit.id,
        inventory_type: source.item.inventory_type,
        search_multi: text,
      },
      signal,
    });
    return reclassOptions(res.results, source);
  };
  return (
    <tr data-line={line.id}>
      <td>
        <strong>{inv.serial_number || "(no serial)"}</strong>
        <div>{[inv.item.item_number, inv.item.item_description].filter(Boolean).join(" | ")}</div>
        <div className="field-hint">{hint ?? `Checked in, not reclassed: ${formatNumber(left)}`}</div>
      </td>
      <td style={{ minWidth: 320 }}>
        <ComboBox
          label="To (Serial #)"
          selected={r.to}
          onChange={(to) => {
            change({ to });
            touch(toKey);
          }}
          onBlur={() => touch(toKey)}
          load={load}
          noMatchText="No serial number of this unit and type has room for it"
          isDisabled={!!hint || !source}
          error={serverError("to_inventory_id") || (touched[toKey] ? issues.to : undefined)}
        />
      </td>
      <td>
        <TextField
          label="Reclass Quantity"
          type="number"
          value={r.quantity}
          onChange={(quantity) => {
            change({ quantity });
            touch(qKey);
          }}
          onBlur={() => touch(qKey)}
          isDisabled={!!hint}
          error={serverError("reclass_quantity") || (touched[qKey] ? issues.quantity : undefined)}
        />
      </td>
      <td>
        <AriaTextField
          className="field"
          type="datetime-local"
          value={r.date}
          onChange={(date) => change({ date })}
          isDisabled={!!hint}
          isInvalid={!!serverError("reclass_date")}
          validationBehavior="aria"
        >
          <Label>Date</Label>
          <Input />
          <FieldError className="field-error">{serverError("reclass_date")}</FieldError>
        </AriaTextField>
      </td>
    </tr>
  );
}
