import { FormDialog, useFormSave, useTouched } from "../../../components/FormDialog.tsx";
import { TextField } from "../../../primitives/TextField.tsx";
import { Select } from "../../../primitives/Select.tsx";
import { Checkbox } from "../../../primitives/Checkbox.tsx";
import { useToday } from "../../../lib/time_zone.tsx";
import { TicketUpdateInput } from "../../../../api/sales/tickets/schemas.ts";
import { isBilledDocument } from "../../../../api/sales/tickets/rules.ts";
import { putTicket, statusOptions } from "./TicketEditDialog.tsx";
import type { DialogProps } from "./types.ts";
import { issuesOf } from "../../../lib/form.ts";
import { useVersioned } from "../../../lib/use_versioned.ts";

/**
 * The invoice form: Status (preset to `status`), the invoice number when there is one, Invoice Date
 * (today on the company's clock by default when approving), Signed, Billed, Paid and Notes. On an approved invoice that stays
 * approved (Edit Invoice: marking it signed, billed or paid) the date and notes are read-only. Saves with PUT
 * /api/sales/tickets: the server makes the invoice (isInvoice, next invoice number) only for APP,
 * which needs approval authority (403 otherwise, shown, the dialog stays open). After saving the
 * screen leaves for the list of the saved status.
 */
export function InvoiceDialog(props: DialogProps & { status: string }) {
  const { ticket, can } = props;
  const today = useToday();
  const dateFor = (status: string) => ticket.invoice_date ?? (status === "APP" ? today : "");
  // The ticket's version goes with the save; a 412 opens the conflict dialog (decision 038).
  const edit = useVersioned(ticket, (t) => ({
    status: t!.status as string,
    invoice_date: t!.invoice_date ?? "",
    isSigned: t!.isSigned,
    isBilled: t!.isBilled,
    isPaid: t!.isPaid,
    notes: t!.notes ?? "",
  }), {
    start: (s) => ({ ...s, status: props.status, invoice_date: dateFor(props.status) }),
    labels: { invoice_date: "Invoice Date", isSigned: "Signed", isBilled: "Billed", isPaid: "Paid" },
  });
  const { v, setV } = edit;
  const { setTouched, shownFrom, revealAll } = useTouched();
  const { busy, errors: serverErrors, setErrors: setServerErrors, save } = useFormSave(edit);

  const body = {
    id: ticket.id,
    status: v.status,
    invoice_date: v.invoice_date || null,
    isSigned: v.isSigned,
    isBilled: v.isBilled,
    isPaid: v.isPaid,
    notes: v.notes,
  };
  const check = TicketUpdateInput.safeParse(body);
  const issues = issuesOf(check);
  const shown = shownFrom(serverErrors, issues);
  // An approved invoice staying approved is billed: only Signed, Billed and Paid change (the server
  // refuses the rest); re-opening it frees the fields again.
  const billed = isBilledDocument(ticket) && v.status === "APP";
  const set = (k: keyof typeof v) => (value: string | boolean) => {
    setV((s) => ({
      ...s,
      [k]: value,
      // Choosing Approved dates the invoice today unless it has a date already.
      ...(k === "status" && value === "APP" && !s.invoice_date ? { invoice_date: today } : {}),
    }));
    setServerErrors((e) => (e[k] ? { ...e, [k]: "" } : e));
  };

  const submit = async () => {
    if (!check.success) return setTouched(Object.fromEntries(Object.keys(issues).map((k) => [k, true])));
    await putTicket(save, body, edit.version, v.status, props.navigate);
  };

  edit.onResend(submit);
  return (
    <FormDialog
      versioned={edit}
      title="Invoice"
      width={600}
      onClose={props.onClose}
      onSubmit={submit}
      onInvalidSubmit={revealAll}
      canSubmit={check.success}
      busy={busy}
    >
      {ticket.invoice_number && <p className="field-note">Invoice Number: {ticket.invoice_number}</p>}
      <div className="form-grid">
        <Select
          label="Status"
          options={statusOptions(ticket, can, props.status)}
          value={v.status}
          onChange={set("status")}
          error={shown("status")}
        />
        <TextField
          label="Invoice Date"
          type="date"
          value={v.invoice_date}
          onChange={set("invoice_date")}
          isReadOnly={billed}
          error={shown("invoice_date")}
        />
      </div>
      <div className="checkbox-row">
        <Checkbox isSelected={v.isSigned} onChange={set("isSigned")}>Signed</Checkbox>
        <Checkbox isSelected={v.isBilled} onChange={set("isBilled")}>Billed</Checkbox>
        <Checkbox isSelected={v.isPaid} onChange={set("isPaid")}>Paid</Checkbox>
      </div>
      <TextField
        label="Notes"
        value={v.notes}
        onChange={set("notes")}
        isReadOnly={billed}
        multiline
        rows={2}
        error={shown("notes")}
      />
    </FormDialog>
  );
}
