import { FormDialog, useFormSave, useTouched } from "../../components/FormDialog.tsx";
import { TextField } from "../../primitives/TextField.tsx";
import { Select } from "../../primitives/Select.tsx";
import { Checkbox } from "../../primitives/Checkbox.tsx";
import { ComboBox, type ComboOption } from "../../primitives/ComboBox.tsx";
import { api } from "../../lib/api.ts";
import {
  INVENTORY_STATUSES,
  InventoryInput,
  InventoryUpdateInput,
  quantityProblem,
  REQUIRED,
} from "../../../api/sales/inventory/schemas.ts";
import type { InventoryRow } from "./types.ts";
import { issuesOf } from "../../lib/form.ts";
import { useVersioned } from "../../lib/use_versioned.ts";

/** A category picker's look-up (GET /api/sales/categories of one model). */
export const loadCategories = (model: string) => (text: string, signal: AbortSignal) =>
  api<{ results: ComboOption[] }>("/api/sales/categories", {
    query: { model, search_name: text, rowsPerPage: 20 },
    signal,
  }).then((r) => r.results.map((c) => ({ id: c.id, name: c.name })));
export const loadBusinessUnits = loadCategories("Business Unit");
const loadInventoryCategories = loadCategories("Inventory Category");

type ItemOption = { id: number; item_number: string; item_description: string };
const itemName = (
  i: ItemOption,
) => (i.item_description ? `${i.item_description} (${i.item_number})` : i.item_number);

/** The item autocomplete: items of the page's type whose number or description holds every word typed. */
const loadItems = (type: string) => (text: string, signal: AbortSignal) =>
  api<{ results: ItemOption[] }>("/api/sales/items", {
    query: { search_multi: text, inventory_type: type, rowsPerPage: 20 },
    signal,
  }).then((r) => r.results.map((i) => ({ id: i.id, name: itemName(i) })));

const text = (v: string | null | undefined) => v ?? "";
const numText = (v: number | null | undefined) => (v === null || v === undefined ? "" : String(v));
const blankNull = (v: string) => (v.trim() === "" ? null : v);

/** The form's values filled from a stock row, or a new one's (the conflict dialog compares these). */
const formValues = (row: InventoryRow | null | undefined, type: string) => ({
  item: (row ? { id: row.item.id, name: itemName(row.item) } : null) as ComboOption | null,
  unit: (row?.business_unit ?? null) as ComboOption | null,
  category: (row?.category ?? null) as ComboOption | null,
  serial_number: text(row?.serial_number),
  inventory_description: text(row?.inventory_description),
  status: row?.status ?? "Available",
  quantity: row ? String(row.quantity) : type === "Serialized" ? "1" : "0",
  hidden: row?.hidden ?? false,
  purchase_date: text(row?.purchase_date),
  purchase_price: numText(row?.purchase_price),
  manufacturer: text(row?.manufacturer),
  location: text(row?.location),
  minimum_rate: numText(row?.minimum_rate),
  additional_day: numText(row?.additional_day),
});
const LABELS: Record<string, string> = {
  unit: "Business Unit",
  serial_number: "Serial Number",
  inventory_description: "Inventory Description",
  purchase_date: "Purchase Date",
  purchase_price: "Purchase Price",
  minimum_rate: "Minimum Rate",
  additional_day: "Additional Day",
};

/**
 * The inventory form (new or edit, max width 800): item (of the page's type), business unit, serial
 * number (required for Serialized), description, category, status, quantity (0 to 1 for Serialized,
 * else to 100000000, checked as typed), hidden, purchase details, location and rates. Save stays
 * disabled while invalid; the server's field messages show under their fields. An edit sends the row's
 * version; a 412 opens the conflict dialog (decision 038).
 */
export function InventoryForm({ row, type, onClose, onSaved }: {
  row: InventoryRow | null;
  type: string;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const itemType = row?.item.inventory_type ?? type;
  const edit = useVersioned(row, (r) => formValues(r, type), { labels: LABELS });
  const { v, setV } = edit;
  const { item, unit, category } = v;
  const setItem = (item: ComboOption | null) => setV((s) => ({ ...s, item }));
  const setUnit = (unit: ComboOption | null) => setV((s) => ({ ...s, unit }));
  const setCategory = (category: ComboOption | null) => setV((s) => ({ ...s, category }));
  const { touch, setTouched, shownFrom, revealAll } = useTouched();
  const { busy, errors: serverErrors, setErrors: setServerErrors, save } = useFormSave(edit);

  const body = {
    ...(row ? { id: row.id } : {}),
    item_id: item?.id,
    business_unit_id: unit?.id,
    category_id: category?.id ?? null,
    serial_number: v.serial_number,
    inventory_description: v.inventory_description,
    status: v.status,
    quantity: v.quantity,
    hidden: v.hidden,
    purchase_date: blankNull(v.purchase_date),
    purchase_price: blankNull(v.purchase_price),
    manufacturer: v.manufacturer,
    location: v.location,
    minimum_rate: blankNull(v.minimum_rate),
    additional_day: blankNull(v.additional_day),
  };
  const check = (row ? InventoryUpdateInput : InventoryInput).safeParse(body);
  const issues = issuesOf(check);
  if (item === null) issues.item_id = REQUIRED;
  if (itemType === "Serialized" && !v.serial_number.trim()) issues.serial_number ??= REQUIRED;
  if (check.success && check.data.quantity !== undefined) {
    const problem = quantityProblem(check.data.quantity, itemType);
    if (problem) issues.quantity = problem;
  }
  const valid = Object.keys(issues).length === 0;

  const shown = shownFrom(serverErrors, issues);
  const clear = (k: string) => setServerErrors((e) => (e[k] ? { ...e, [k]: "" } : e));
  type Text = Exclude<keyof typeof v, "item" | "unit" | "category">;
  const set = (k: Text, live = false) => (value: string | boolean) => {
    setV((s) => ({ ...s, [k]: value }));
    clear(k);
    if (live) touch(k);
  };
  const field = (
    k: Text,
    label: string,
    opts: { type?: "date" | "number"; live?: boolean } = {},
  ) => (
    <TextField
      label={label}
      type={opts.type}
      value={String(v[k])}
      onChange={set(k, opts.live)}
      onBlur={() => touch(k)}
      error={shown(k)}
      isRequired={(k === "serial_number" && itemType === "Serialized") || k === "quantity"}
    />
  );

  const submit = async () => {
    if (!valid) return setTouched(Object.fromEntries(Object.keys(issues).map((k) => [k, true])));
    await save(() =>
      api<{ message?: string }>("/api/sales/inventory", {
        method: row ? "PUT" : "POST",
        json: body,
        version: edit.version,
      }), onSaved);
  };
  edit.onResend(submit);

  return (
    <FormDialog
      title={row ? "Edit Inventory" : "New Inventory"}
      width={800}
      onClose={onClose}
      onSubmit={submit}
      onInvalidSubmit={revealAll}
      canSubmit={valid}
      busy={busy}
      versioned={edit}
    >
      <div className="form-grid">
        <ComboBox
          label="Item"
          selected={item}
          onChange={(i) => {
            setItem(i);
            clear("item_id");
            touch("item_id");
          }}
          onBlur={() => touch("item_id")}
          load={loadItems(itemType)}
          error={shown("item_id")}
          isRequired
        />
        <ComboBox
          label="Business Unit"
          selected={unit}
          onChange={(u) => {
            setUnit(u);
            clear("business_unit_id");
            touch("business_unit_id");
          }}
          onBlur={() => touch("business_unit_id")}
          load={loadBusinessUnits}
          error={shown("business_unit_id")}
          isRequired
        />
        {field("serial_number", "Serial Number")}
        {field("inventory_description", "Inventory Description")}
        <ComboBox
          label="Category"
          selected={category}
          onChange={(c) => {
            setCategory(c);
            clear("category_id");
          }}
          load={loadInventoryCategories}
          error={shown("category_id")}
        />
        <Select
          label="Status"
          options={INVENTORY_STATUSES.map((s) => ({ id: s, label: s }))}
          value={v.status}
          onChange={set("status")}
          error={shown("status")}
        />
        {field("quantity", "Quantity", { type: "number", live: true })}
        {field("purchase_date", "Purchase Date", { type: "date" })}
        {field("purchase_price", "Purchase Price", { type: "number", live: true })}
        {field("manufacturer", "Manufacturer")}
        {field("location", "Location")}
        {field("minimum_rate", "Minimum Rate", { type: "number", live: true })}
        {field("additional_day", "Additional Day", { type: "number", live: true })}
      </div>
      <div className="checkbox-row">
        <Checkbox isSelected={v.hidden} onChange={set("hidden")}>Hidden</Checkbox>
      </div>
    </FormDialog>
  );
}
