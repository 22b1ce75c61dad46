import { useState } from "react";
import { FormDialog, useFormSave, useTouched } from "../../components/FormDialog.tsx";
import { TextField } from "../../primitives/TextField.tsx";
import { Select } from "../../primitives/Select.tsx";
import { Checkbox } from "../../primitives/Checkbox.tsx";
import { ComboBox, type ComboOption } from "../../primitives/ComboBox.tsx";
import { api } from "../../lib/api.ts";
import { BILLING_UNITS, INVENTORY_TYPES, ITEM_TYPES } from "../../../lib/enums.ts";
import { ItemInput, ItemUpdateInput } from "../../../api/sales/items/schemas.ts";
import type { ItemRow } from "./types.ts";
import { issuesOf } from "../../lib/form.ts";
import { useVersioned } from "../../lib/use_versioned.ts";

/** A category picker's look-up (GET /api/sales/categories of one model). */
const loadCategories = (model: string) => (text: string, signal: AbortSignal) =>
  api<{ results: ComboOption[] }>("/api/sales/categories", {
    query: { model, search_name: text, rowsPerPage: 20 },
    signal,
  }).then((r) => r.results.map((c) => ({ id: c.id, name: c.name })));
const loadItemCategories = loadCategories("Item Category");
const loadBusinessUnits = loadCategories("Business Unit");

/** A list's options, with the stored value kept when company settings once offered another. */
const options = (list: readonly string[], current: string) =>
  [...list, ...(current && !list.includes(current) ? [current] : [])].map((v) => ({ id: v, label: v }));

const AT = "add_to_inventory.";

/** The form's values filled from an item (the conflict dialog compares these). */
const formValues = (item: ItemRow | null | undefined) => ({
  item_number: item?.item_number ?? "",
  item_description: item?.item_description ?? "",
  rate: item?.rate === null || item?.rate === undefined ? "" : String(item.rate),
  units: item?.units ?? "",
  inventory_type: item?.inventory_type ?? "",
  item_type: item?.item_type ?? "",
  category: (item?.category ?? null) as ComboOption | null,
  isTaxable: item?.isTaxable ?? false,
  isExpendable: item?.isExpendable ?? false,
  isService: item?.isService ?? false,
  notes: item?.notes ?? "",
});
const LABELS: Record<string, string> = {
  item_number: "Item Number",
  item_description: "Item Description",
  inventory_type: "Inventory Type",
  item_type: "Item Type",
  isTaxable: "Taxable",
  isExpendable: "Expendable",
  isService: "Service",
};

/**
 * The item form (new or edit, max width 800): every item field and, checked, 'Add to inventory'
 * with serial number, quantity (0 to 1 for Serialized, else to 100000000, checked as typed) and
 * business unit, saved with the item in one transaction. Save stays disabled while invalid. An edit
 * sends the item's version; a 412 opens the conflict dialog on the item's fields (decision 038), the
 * stock row to add staying as typed.
 */
export function ItemForm({ item, onClose, onSaved }: {
  item: ItemRow | null;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const edit = useVersioned(item, formValues, { labels: LABELS });
  const { v: fields, setV: setFields } = edit;
  // 'Add to inventory' is not the item's: kept apart from the values the conflict dialog compares.
  const [stock, setStock] = useState({ add: false, serial: "", quantity: "1" });
  const v = { ...fields, ...stock };
  const category = fields.category;
  const setCategory = (category: ComboOption | null) => setFields((s) => ({ ...s, category }));
  const [unit, setUnit] = useState<ComboOption | null>(null);
  const { touch, setTouched, shownFrom, revealAll } = useTouched();
  const { busy, errors: serverErrors, setErrors: setServerErrors, save } = useFormSave(edit);

  const body = {
    ...(item ? { id: item.id } : {}),
    item_number: v.item_number,
    item_description: v.item_description,
    rate: v.rate.trim() === "" ? null : v.rate,
    units: v.units,
    inventory_type: v.inventory_type || undefined,
    item_type: v.item_type,
    isTaxable: v.isTaxable,
    isExpendable: v.isExpendable,
    isService: v.isService,
    category_id: category?.id ?? null,
    notes: v.notes,
    add_to_inventory: v.add
      ? {
        inventory_serial_number: v.serial,
        inventory_quantity: v.quantity,
        inventory_business_unit_id: unit?.id,
      }
      : null,
  };
  const check = (item ? ItemUpdateInput : ItemInput).safeParse(body);
  const issues = issuesOf(check);

  const shown = shownFrom(serverErrors, issues);
  const set = (k: keyof typeof v, path: string = k) => (value: string | boolean) => {
    if (k in stock) setStock((s) => ({ ...s, [k]: value }));
    else setFields((s) => ({ ...s, [k]: value }));
    setServerErrors((e) => (e[path] ? { ...e, [path]: "" } : e));
  };

  const submit = async () => {
    if (!check.success) return setTouched(Object.fromEntries(Object.keys(issues).map((k) => [k, true])));
    await save(() =>
      api<{ message?: string }>("/api/sales/items", {
        method: item ? "PUT" : "POST",
        json: body,
        version: edit.version,
      }), onSaved);
  };
  edit.onResend(submit);

  return (
    <FormDialog
      title={item ? "Edit Item" : "New Item"}
      width={800}
      onClose={onClose}
      onSubmit={submit}
      onInvalidSubmit={revealAll}
      canSubmit={check.success}
      busy={busy}
      versioned={edit}
    >
      <div className="form-grid">
        <TextField
          label="Item Number"
          value={v.item_number}
          onChange={set("item_number")}
          onBlur={() => touch("item_number")}
          error={shown("item_number")}
          isRequired
          autoFocus
        />
        <Select
          label="Inventory Type"
          options={options(INVENTORY_TYPES, "")}
          value={v.inventory_type || null}
          onChange={(t) => {
            set("inventory_type")(t);
            touch("inventory_type");
          }}
          onBlur={() => touch("inventory_type")}
          error={shown("inventory_type")}
          isRequired
        />
        <TextField
          label="Item Description"
          value={v.item_description}
          onChange={set("item_description")}
          error={shown("item_description")}
        />
        <TextField
          label="Rate"
          type="number"
          value={v.rate}
          onChange={(r) => {
            set("rate")(r);
            touch("rate");
          }}
          error={shown("rate")}
        />
        <Select
          label="Units"
          options={options(BILLING_UNITS, v.units)}
          value={v.units || null}
          onChange={set("units")}
        />
        <Select
          label="Item Type"
          options={options(ITEM_TYPES, v.item_type)}
          value={v.item_type || null}
          onChange={set("item_type")}
        />
        <ComboBox
          label="Category"
          selected={category}
          onChange={setCategory}
          load={loadItemCategories}
          error={shown("category_id")}
        />
      </div>
      <div className="checkbox-row">
        <Checkbox isSelected={v.isTaxable} onChange={set("isTaxable")}>Taxable</Checkbox>
        <Checkbox isSelected={v.isExpendable} onChange={set("isExpendable")}>Expendable</Checkbox>
        <Checkbox isSelected={v.isService} onChange={set("isService")}>Service</Checkbox>
      </div>
      <TextField
        label="Notes"
        value={v.notes}
        onChange={set("notes")}
        multiline
        rows={2}
        error={shown("notes")}
      />
      <div className="checkbox-row">
        <Checkbox isSelected={v.add} onChange={set("add")}>Add to inventory</Checkbox>
      </div>
      {v.add && (
        <div className="form-grid">
          <TextField
            label="Serial Number"
            value={v.serial}
            onChange={set("serial", AT + "inventory_serial_number")}
            error={shown(AT + "inventory_serial_number")}
          />
          <TextField
            label="Quantity"
            type="number"
            value={v.quantity}
            onChange={(q) => {
              set("quantity", AT + "inventory_quantity")(q);
              touch(AT + "inventory_quantity");
            }}
            error={shown(AT + "inventory_quantity")}
            isRequired
          />
          <ComboBox
            label="Business Unit"
            selected={unit}
            onChange={(u) => {
              setUnit(u);
              touch(AT + "inventory_business_unit_id");
            }}
            onBlur={() => touch(AT + "inventory_business_unit_id")}
            load={loadBusinessUnits}
            error={shown(AT + "inventory_business_unit_id")}
            isRequired
          />
        </div>
      )}
    </FormDialog>
  );
}
