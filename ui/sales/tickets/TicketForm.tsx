import { useEffect, useState } from "react";
import { FormDialog, useFormSave, useTouched } from "../../components/FormDialog.tsx";
import { TextField } from "../../primitives/TextField.tsx";
import { Select } from "../../primitives/Select.tsx";
import { Checkbox } from "../../primitives/Checkbox.tsx";
import { ComboBox, type ComboOption } from "../../primitives/ComboBox.tsx";
import { api } from "../../lib/api.ts";
import { today } from "../../lib/format.ts";
import { TicketInput } from "../../../api/sales/tickets/schemas.ts";

type Query = Record<string, string | number | boolean | undefined>;

/** A picker's look-up: `search_name` plus fixed parameters, the first 20 by name. */
export const lookup = (path: string, fixed: Query = {}) => (text: string, signal: AbortSignal) =>
  api<{ results: ComboOption[] }>(path, { query: { ...fixed, search_name: text, rowsPerPage: 20 }, signal })
    .then((r) => r.results.map((o) => ({ id: o.id, name: o.name })));

export const loadCustomers = lookup("/api/companies", { isOwner: false });
export const loadReps = lookup("/api/users", { isSalesRep: true });
export const loadTaxes = lookup("/api/sales/taxes");
export const loadUnits = lookup("/api/sales/categories", { model: "Business Unit" });
export const loadProductLines = lookup("/api/sales/categories", { model: "Product Line" });

/**
 * The new ticket (or quote) form, max width 800: Customer and Sales Rep required (the spec's
 * messages), tax, business unit, product line, sub product line (of the chosen line), a template of
 * the chosen unit (fills the lines), location, notes, ticket date (today) and Use Min Rate Logic
 * (on). Save stays disabled while invalid.
 */
export function TicketForm({ isQuote, onClose, onSaved }: {
  isQuote: boolean;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const [customer, setCustomer] = useState<ComboOption | null>(null);
  const [rep, setRep] = useState<ComboOption | null>(null);
  const [tax, setTax] = useState<ComboOption | null>(null);
  const [unit, setUnit] = useState<ComboOption | null>(null);
  const [line, setLine] = useState<ComboOption | null>(null);
  const [subLine, setSubLine] = useState<ComboOption | null>(null);
  const [templates, setTemplates] = useState<ComboOption[]>([]);
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [v, setV] = useState({ location: "", notes: "", ticket_date: today(), use_min_rate_logic: true });
  const { touch, setTouched, shownFrom } = useTouched();
  const { busy, errors: serverErrors, setErrors: setServerErrors, save } = useFormSave();

  // The chosen unit's templates; a failed fetch is only logged (the list stays as it was).
  useEffect(() => {
    setTemplateId(null);
    if (!unit) return setTemplates([]);
    const ac = new AbortController();
    api<{ results: ComboOption[] }>(`/api/sales/templates/business-unit/${unit.id}`, { signal: ac.signal })
      .then((r) => setTemplates(r.results.map((t) => ({ id: t.id, name: t.name }))))
      .catch((e) => {
        if ((e as Error).name !== "AbortError") console.error("template fetch failed", e);
      });
    return () => ac.abort();
  }, [unit]);

  const body = {
    customer_id: customer?.id ?? null,
    sales_rep_id: rep?.id ?? null,
    tax_id: tax?.id ?? null,
    business_unit_id: unit?.id ?? null,
    product_line_id: line?.id ?? null,
    sub_product_line_id: subLine?.id ?? null,
    template_id: templateId ? Number(templateId) : null,
    location: v.location,
    notes: v.notes,
    ticket_date: v.ticket_date,
    use_min_rate_logic: v.use_min_rate_logic,
    isQuote,
    ...(isQuote ? { status: "QUOTE" as const } : {}),
  };
  const check = TicketInput.safeParse(body);
  const issues: Record<string, string> = {};
  if (!check.success) { for (const i of check.error.issues) issues[i.path.join(".")] ??= i.message; }
  const shown = shownFrom(serverErrors, issues);
  const clear = (k: string) => setServerErrors((e) => (e[k] ? { ...e, [k]: "" } : e));
  const set = (k: keyof typeof v) => (value: string | boolean) => {
    setV((s) => ({ ...s, [k]: value }));
    clear(k);
  };
  const pick = (k: string, setter: (o: ComboOption | null) => void) => (o: ComboOption | null) => {
    setter(o);
    touch(k);
    clear(k);
  };

  const submit = async () => {
    if (!check.success) return setTouched(Object.fromEntries(Object.keys(issues).map((k) => [k, true])));
    await save(
      () =>
        api<{ message?: string; ticket_number: string }>("/api/sales/tickets", {
          method: "POST",
          json: body,
        }),
      (message, saved) => onSaved(`${message}: ${saved.ticket_number}`),
    );
  };

  return (
    <FormDialog
      title={isQuote ? "New Quote" : "New Ticket"}
      width={800}
      onClose={onClose}
      onSubmit={submit}
      canSubmit={check.success}
      busy={busy}
    >
      <div className="form-grid">
        <ComboBox
          label="Customer"
          selected={customer}
          onChange={pick("customer_id", setCustomer)}
          onBlur={() => touch("customer_id")}
          load={loadCustomers}
          error={shown("customer_id")}
          isRequired
        />
        <ComboBox
          label="Sales Rep"
          selected={rep}
          onChange={pick("sales_rep_id", setRep)}
          onBlur={() => touch("sales_rep_id")}
          load={loadReps}
          error={shown("sales_rep_id")}
          isRequired
        />
        <ComboBox
          label="Tax"
          selected={tax}
          onChange={pick("tax_id", setTax)}
          load={loadTaxes}
          error={shown("tax_id")}
        />
        <ComboBox
          label="Business Unit"
          selected={unit}
          onChange={pick("business_unit_id", setUnit)}
          load={loadUnits}
          error={shown("business_unit_id")}
        />
        <ComboBox
          label="Product Line"
          selected={line}
          onChange={(o) => {
            pick("product_line_id", setLine)(o);
            if (o?.id !== line?.id) setSubLine(null);
          }}
          load={loadProductLines}
          error={shown("product_line_id")}
        />
        <ComboBox
          // A new product line starts a new look-up (its sub lines only).
          key={line?.id ?? "none"}
          label="Sub Product Line"
          selected={subLine}
          onChange={pick("sub_product_line_id", setSubLine)}
          load={lookup("/api/sales/sub_categories", { search_parent: line?.id })}
          error={shown("sub_product_line_id")}
          isDisabled={!line}
        />
        <Select
          label="Template"
          options={templates.map((t) => ({ id: String(t.id), label: t.name }))}
          value={templateId}
          onChange={(id) => {
            setTemplateId(id);
            clear("template_id");
          }}
          error={shown("template_id")}
          isDisabled={!unit || templates.length === 0}
          placeholder={unit ? (templates.length ? "Select..." : "No templates") : "Choose a business unit"}
        />
        <TextField label="Location" value={v.location} onChange={set("location")} error={shown("location")} />
        <TextField
          label="Ticket Date"
          type="date"
          value={v.ticket_date}
          onChange={set("ticket_date")}
          error={shown("ticket_date")}
        />
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
        <Checkbox isSelected={v.use_min_rate_logic} onChange={set("use_min_rate_logic")}>
          Use Min Rate Logic
        </Checkbox>
      </div>
    </FormDialog>
  );
}
