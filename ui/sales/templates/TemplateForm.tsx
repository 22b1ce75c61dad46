import { FormDialog, useFormSave, useTouched } from "../../components/FormDialog.tsx";
import { TextField } from "../../primitives/TextField.tsx";
import { api, ApiError } from "../../lib/api.ts";
import { TemplateInput } from "../../../api/sales/templates/schemas.ts";
import type { InventoryRowOut } from "../../../api/sales/inventory_rows/schemas.ts";
import { UnitPicker } from "./UnitPicker.tsx";
import { InventoryPicker } from "./InventoryPicker.tsx";
import { InventoryOrder } from "./InventoryOrder.tsx";
import type { TemplateRow, UnitOption } from "./types.ts";
import { issuesOf } from "../../lib/form.ts";
import { useVersioned } from "../../lib/use_versioned.ts";

const ROW_ERROR = /^inventory_ids\.\d+$/;
export const OTHER_UNIT = "Not in this business unit: remove it";

/**
 * The ordered inventory as one form value: the conflict dialog compares values by `id` (here the rows'
 * ids in order, so a row's changing availability is no change of the template) and shows their `name`.
 */
const inventoryValue = (rows: InventoryRowOut[]) => ({
  id: rows.map((r) => r.id).join(","),
  name: rows.map((r) => r.serial_number || r.item.item_number).join(", "),
  rows,
});

/** The form's values filled from a template (the conflict dialog compares these). */
const formValues = (template: TemplateRow | null | undefined, unit: UnitOption | null) => ({
  name: template?.name ?? "",
  unit: (template?.business_unit ?? unit) as UnitOption | null,
  inventory: inventoryValue(template?.inventory ?? []),
});
const LABELS = { name: "Name", unit: "Business Unit", inventory: "Inventory" };

/**
 * New or edit template (max width 800): Name and Business Unit required (spec), then the ordered
 * inventory: picked from the unit's charge codes and itemized rows, moved up and down, removed. A
 * row of another unit (after the unit changed) must go before Save. Save stays disabled while the
 * form is invalid; messages show once a field has been visited. An edit sends the template's version;
 * a 412 opens the conflict dialog (decision 038).
 */
export function TemplateForm({ template, unit: initialUnit, onClose, onSaved }: {
  template: TemplateRow | null;
  /** a new template starts in the page's chosen unit */
  unit: UnitOption | null;
  onClose: () => void;
  onSaved: (saved: TemplateRow & { message: string }) => void;
}) {
  const edit = useVersioned(template, (t) => formValues(t, initialUnit), { labels: LABELS });
  const { name, unit, inventory: { rows } } = edit.v;
  const setName = (name: string) => edit.setV((s) => ({ ...s, name }));
  const setUnit = (unit: UnitOption | null) => edit.setV((s) => ({ ...s, unit }));
  const setRows = (rows: InventoryRowOut[]) => edit.setV((s) => ({ ...s, inventory: inventoryValue(rows) }));
  const { touch, shownFrom, revealAll } = useTouched();
  const { busy, errors: serverErrors, setErrors: setServerErrors, save } = useFormSave(edit);

  const body = {
    ...(template ? { id: template.id } : {}),
    name,
    business_unit_id: unit?.id ?? null,
    inventory_ids: rows.map((r) => r.id),
  };
  const check = TemplateInput.safeParse(body);
  const errors = issuesOf(check);
  rows.forEach((r, i) => {
    if (unit && r.business_unit.id !== unit.id) errors[`inventory_ids.${i}`] ??= OTHER_UNIT;
  });
  const valid = Object.keys(errors).length === 0;
  const shown = shownFrom(serverErrors, errors);
  const rowErrors: Record<number, string | undefined> = {};
  rows.forEach((_, i) => (rowErrors[i] = serverErrors[`inventory_ids.${i}`] || errors[`inventory_ids.${i}`]));
  const changeRows = (next: InventoryRowOut[]) => {
    setRows(next);
    // Indexes shift when rows move: the server's messages no longer fit.
    setServerErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !ROW_ERROR.test(k))));
  };

  const submit = async () => {
    if (!valid) return;
    await save(
      () =>
        api<TemplateRow & { message: string }>("/api/sales/templates", {
          method: template ? "PUT" : "POST",
          json: body,
          version: edit.version,
        }),
      (_, saved) => onSaved(saved),
      (byField, e) => {
        if (e instanceof ApiError && e.status === 409) byField.name ??= e.detail;
      },
    );
  };
  edit.onResend(submit);

  return (
    <FormDialog
      title={template ? "Edit Template" : "New Template"}
      width={800}
      onClose={onClose}
      onSubmit={submit}
      onInvalidSubmit={revealAll}
      canSubmit={valid}
      busy={busy}
      versioned={edit}
    >
      <div className="form-grid">
        <TextField
          label="Name"
          value={name}
          onChange={(v) => {
            setName(v);
            touch("name");
            setServerErrors((e) => ({ ...e, name: "" }));
          }}
          onBlur={() => touch("name")}
          error={shown("name")}
          isRequired
          autoFocus
        />
        <UnitPicker
          selected={unit}
          onChange={(u) => {
            setUnit(u);
            touch("business_unit_id");
            setServerErrors((e) => ({ ...e, business_unit_id: "" }));
          }}
          onBlur={() => touch("business_unit_id")}
          error={shown("business_unit_id")}
          isRequired
          emptyOnError
        />
      </div>
      <fieldset style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <legend style={{ fontWeight: 600, padding: 0, marginBottom: 4 }}>
          Inventory{rows.length ? ` (${rows.length})` : ""}
        </legend>
        <InventoryPicker
          unitId={unit?.id ?? null}
          chosen={rows.map((r) => r.id)}
          onPick={(r) => changeRows([...rows, r])}
        />
        <InventoryOrder rows={rows} onChange={changeRows} errors={rowErrors} />
        {shown("inventory_ids") && <p className="field-error">{shown("inventory_ids")}</p>}
      </fieldset>
    </FormDialog>
  );
}
