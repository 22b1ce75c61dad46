import { useState } from "react";
import { FormDialog, useFormSave } from "../../components/FormDialog.tsx";
import { api } from "../../lib/api.ts";
import { LinePicker, soldOf } from "./TransferDialog.tsx";
import type { DialogProps, TicketDetail } from "../tickets/detail/types.ts";
import type { Line } from "./types.ts";

/** Bill back is for sold items of an approved invoice (the server refuses anything else). */
export function billBackBlocked(ticket: Pick<TicketDetail, "status">): string | null {
  return ticket.status === "APP" ? null : "Bill back is for sold items of an approved invoice.";
}

/** The lines with sold quantity not yet billed back. */
export function billable(ticket: Pick<TicketDetail, "status">, lines: Line[]): Line[] {
  if (billBackBlocked(ticket)) return [];
  return lines.filter((l) => soldOf(l).unbilled > 0);
}

/**
 * Bills the sold, not yet billed back quantity of the selected lines of this invoice on a new OPEN
 * ticket (POST /api/sales/tickets/bill-back), then returns to the tickets list with the message.
 */
export function BillBackDialog(props: DialogProps) {
  const { ticket } = props;
  const blocked = billBackBlocked(ticket);
  const eligible = billable(ticket, props.lines);
  const [selected, setSelected] = useState<string[]>([]);
  const [touched, setTouched] = useState(false);
  const { busy, errors, setErrors, save } = useFormSave();

  const submit = async () => {
    setTouched(true);
    if (selected.length === 0) return;
    await save(
      () =>
        api<{ message: string; ticket_id: number }>("/api/sales/tickets/bill-back", {
          method: "POST",
          json: { ticket_id: ticket.id, line_ids: selected.map(Number) },
        }),
      (message) => props.navigate("/sales/tickets", message),
    );
  };

  return (
    <FormDialog
      title="Bill Back"
      width={600}
      onClose={props.onClose}
      onSubmit={submit}
      submitLabel="Bill Back"
      canSubmit={!blocked && selected.length > 0}
      busy={busy}
    >
      {blocked
        ? <p className="field-note">{blocked}</p>
        : eligible.length === 0
        ? <p className="field-note">No sold items are left to bill back.</p>
        : (
          <>
            <p className="field-note">The sold quantity of each selected line is billed on a new ticket.</p>
            <LinePicker
              lines={eligible}
              value={selected}
              quantity={(l) => soldOf(l).unbilled}
              onChange={(v) => {
                setSelected(v);
                setTouched(true);
                setErrors((e) => (e.line_ids ? { ...e, line_ids: "" } : e));
              }}
              touched={touched}
              error={errors.line_ids ?? Object.entries(errors).find(([k]) => k.startsWith("line_ids."))?.[1]}
            />
          </>
        )}
    </FormDialog>
  );
}
