import { useState } from "react";
import { FormDialog, useFormSave, useTouched } from "../../components/FormDialog.tsx";
import { TextField } from "../../primitives/TextField.tsx";
import { Select } from "../../primitives/Select.tsx";
import { Checkbox } from "../../primitives/Checkbox.tsx";
import { ComboBox, type ComboOption } from "../../primitives/ComboBox.tsx";
import { api, ApiError } from "../../lib/api.ts";
import { TicketUpdateInput } from "../../../api/sales/tickets/schemas.ts";
import {
  loadCustomers,
  loadProductLines,
  loadReps,
  loadTaxes,
  loadUnits,
  lookup,
} from "../tickets/TicketForm.tsx";
import { redirectAfterSave, STATUS_LABELS, type StatusChoice, statusChoices } from "./status.ts";
import type { DialogProps, TicketDetail } from "./types.ts";

const option = (o: { id: number; name?: string | null } | null | undefined): ComboOption | null =>
  o ? { id: o.id, name: o.name ?? "" } : null;

/** The status choices, with the preset one kept even if the list would not offer it. */
export function statusOptions(ticket: TicketDetail, can: DialogProps["can"], preset: string) {
  const choices = statusChoices(ticket, can);
  if (choices.some((c) => c.id === preset)) return choices;
  return [...choices, { id: preset, label: STATUS_LABELS[preset as StatusChoice] ?? preset }];
}

/**
 * A refused transition (403, 409) is a sentence about the status: it is shown under the Status
 * field as well as in the snack, and the form keeps everything the user entered.
 */
export const statusRefusal = (byField: Record<string, string>, e: unknown) => {
  if (e instanceof ApiError && (e.status === 403 || e.status === 409)) byField.status ??= e.detail;
};

/**
 * The ticket form for an existing ticket (or quote), prefilled: Customer and Sales Rep required
 * (the spec's messages), tax, business unit, product line, sub product line, location, notes, ticket
 * date, Use Min Rate Logic, Final Bill and Status (the role-limited choices, preset to `status`).
 * Saves with PUT /api/sales/tickets; a refused transition leaves the dialog open with its values.
 * After saving the screen leaves for the list of the saved status (the new ticket for a clone).
 */
export function TicketEditDialog(props: DialogProps & { status: string }) {
  const { ticket, can } = props;
  const [customer, setCustomer] = useState(option(ticket.customer));
  const [rep, setRep] = useState(option(ticket.sales_rep));
  const [tax, setTax] = useState(option(ticket.tax));
  const [unit, setUnit] = useState(option(ticket.business_unit));
  const [line, setLine] = useState(option(ticket.product_line));
  const [subLine, setSubLine] = useState(option(ticket.sub_product_line));
  const [v, setV] = useState({
    status: props.status,
    location: ticket.location ?? "",
    notes: ticket.notes ?? "",
    ticket_date: ticket.ticket_date ?? "",
    use_min_rate_logic: ticket.use_min_rate_logic,
    final_bill: ticket.final_bill,
  });
  const { touch, setTouched, shownFrom } = useTouched();
  const { busy, errors: serverErrors, setErrors: setServerErrors, save } = useFormSave();

  const body = {
    id: ticket.id,
    status: v.status,
    customer_id: customer?.id ?? null,
    sales_rep_id: rep?.id ?? null,
    tax_id: tax?.id ?? null,
    business_unit_id: unit?.id ?? null,
    product_line_id: line?.id ?? null,
    sub_product_line_id: subLine?.id ?? null,
    location: v.location,
    notes: v.notes,
    ticket_date: v.ticket_date || null,
    use_min_rate_logic: v.use_min_rate_logic,
    final_bill: v.final_bill,
  };
  const check = TicketUpdateInput.safeParse(body);
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
    const status = v.status;
    await save(
      () => api<TicketDetail & { message?: string }>("/api/sales/tickets", { method: "PUT", json: body }),
      (message, saved) => props.navigate(redirectAfterSave(status, saved), message),
      statusRefusal,
    );
  };

  const isQuote = ticket.isQuote || ticket.status === "QUOTE";
  return (
    <FormDialog
      title={isQuote ? "Edit Quote" : "Edit Ticket"}
      width={800}
      onClose={props.onClose}
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
        <TextField label="Location" value={v.location} onChange={set("location")} error={shown("location")} />
        <TextField
          label="Ticket Date"
          type="date"
          value={v.ticket_date}
          onChange={set("ticket_date")}
          error={shown("ticket_date")}
        />
        <Select
          label="Status"
          options={statusOptions(ticket, can, props.status)}
          value={v.status}
          onChange={set("status")}
          error={shown("status")}
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
        <Checkbox isSelected={v.final_bill} onChange={set("final_bill")}>Final Bill</Checkbox>
      </div>
    </FormDialog>
  );
}
