import { useEffect, useState } from "react";
import { FormDialog, useFormSave } from "../../components/FormDialog.tsx";
import { Select } from "../../primitives/Select.tsx";
import { Checkbox } from "../../primitives/Checkbox.tsx";
import { CheckboxGroup } from "../../primitives/CheckboxGroup.tsx";
import { api } from "../../lib/api.ts";
import type { TicketRow } from "../tickets/types.ts";
import { sameUnit } from "../../../api/sales/lines/fit.ts";
import { formatDate } from "../../../lib/format.ts";
import type { DialogProps, TicketDetail } from "../tickets/detail/types.ts";
import type { Line } from "./types.ts";
import { linesWithSerial, notOnTicket } from "./scan_lines.ts";
import { ScanButton, type ScanReply } from "../../scan/ScanButton.tsx";

export const SELECT_ONE = "Select at least one line";

/** Sold quantity on a line's log, and the part of it not yet billed back. */
export function soldOf(line: Line): { sold: number; unbilled: number } {
  let sold = 0;
  let unbilled = 0;
  for (const e of line.inventory_log ?? []) {
    sold += e.quantity_sold;
    if (!e.billed) unbilled += e.quantity_sold;
  }
  return { sold, unbilled };
}

/**
 * Why no line of this ticket can be transferred (the server's refusals), or null: quotes and
 * approved invoices keep their lines.
 */
export function transferBlocked(ticket: Pick<TicketDetail, "status" | "isQuote">): string | null {
  if (ticket.status === "APP") return "Lines of an approved invoice can't be transferred.";
  if (ticket.status === "QUOTE" || ticket.isQuote) return "Quote lines are not transferred.";
  return null;
}

/** The lines that may move: nothing sold on them (a sale belongs to the ticket that bills it). */
export function transferable(ticket: Pick<TicketDetail, "status" | "isQuote">, lines: Line[]): Line[] {
  if (transferBlocked(ticket)) return [];
  return lines.filter((l) => !l.isSold && soldOf(l).sold === 0);
}

const lineLabel = (l: Line, quantity = l.quantity) =>
  [l.sales_inventory.serial_number, l.sales_inventory.item.item_description, `Qty ${quantity}`]
    .filter(Boolean).join(" · ");

/**
 * A checkbox list of lines with Select All; at least one must be chosen ('Select at least one
 * line', shown once the user has changed the selection or tried to submit).
 */
export function LinePicker({ lines, value, onChange, touched, error, quantity }: {
  lines: Line[];
  value: string[];
  onChange: (v: string[]) => void;
  touched: boolean;
  error?: string;
  quantity?: (l: Line) => number;
}) {
  const all = lines.length > 0 && value.length === lines.length;
  return (
    <>
      {lines.length > 1 && (
        <Checkbox
          isSelected={all}
          onChange={(on) =>
            onChange(
              on ? lines.map((l) => String(l.id)) : [],
            )}
        >
          Select All
        </Checkbox>
      )}
      <CheckboxGroup
        label="Lines"
        value={value}
        onChange={onChange}
        options={lines.map((l) => ({ value: String(l.id), label: lineLabel(l, quantity?.(l)) }))}
        error={error || (touched && value.length === 0 ? SELECT_ONE : undefined)}
      />
    </>
  );
}

/**
 * Transfers selected unsold lines to another OPEN ticket of the same customer or to a new ticket
 * (POST /api/sales/tickets/transfer), then returns to the tickets list with the server's message.
 */
export function TransferDialog(props: DialogProps) {
  const { ticket } = props;
  const blocked = transferBlocked(ticket);
  const movable = transferable(ticket, props.lines);
  const [selected, setSelected] = useState<string[]>([]);
  const [touched, setTouched] = useState(false);
  const [target, setTarget] = useState("new");
  const [targets, setTargets] = useState<TicketRow[]>([]);
  const { busy, errors, setErrors, save } = useFormSave();

  // The customer's other OPEN tickets; a failed look-up is only logged (New ticket stays offered).
  useEffect(() => {
    if (blocked || !ticket.customer) return;
    const ac = new AbortController();
    api<{ results: TicketRow[] }>("/api/sales/tickets", {
      query: { ticketFlowFilter: "OPEN", search_customer: ticket.customer.name, rowsPerPage: -1 },
      signal: ac.signal,
    }).then((r) =>
      setTargets(
        r.results.filter((t) =>
          t.customer_id === ticket.customer_id && t.id !== ticket.id && !t.isQuote && sameUnit(ticket, t)
        ),
      )
    ).catch((e) => {
      if ((e as Error).name !== "AbortError") console.error("ticket look-up failed", e);
    });
    return () => ac.abort();
  }, [ticket.id, ticket.customer_id, ticket.customer?.name, blocked]);

  const submit = async () => {
    setTouched(true);
    if (selected.length === 0) return;
    await save(
      () =>
        api<{ message: string; ticket_id: number }>("/api/sales/tickets/transfer", {
          method: "POST",
          json: {
            ticket_id: ticket.id,
            line_ids: selected.map(Number),
            to_ticket_id: target === "new" ? null : Number(target),
          },
        }),
      (message) => props.navigate("/sales/tickets", message),
    );
  };

  // A scanned serial picks its line (issue 13).
  const scan = (serial: string): ScanReply => {
    const found = linesWithSerial(props.lines, serial);
    if (!found.length) return { error: notOnTicket(serial) };
    const line = found.find((l) => movable.includes(l));
    if (!line) {
      return {
        error: `${found[0].sales_inventory.serial_number} has sold quantity: it stays on this ticket.`,
      };
    }
    const id = String(line.id);
    setSelected((s) => (s.includes(id) ? s : [...s, id]));
    setTouched(true);
    return { ok: `${line.sales_inventory.serial_number} picked.` };
  };

  const options = [
    { id: "new", label: "New ticket" },
    ...targets.map((t) => ({
      id: String(t.id),
      label: [t.ticket_number, t.location, formatDate(t.ticket_date)].filter(Boolean).join(" · "),
    })),
  ];
  return (
    <FormDialog
      title="Transfer Lines"
      width={600}
      onClose={props.onClose}
      onSubmit={submit}
      submitLabel="Transfer"
      canSubmit={!blocked && selected.length > 0}
      busy={busy}
    >
      {blocked ? <p className="field-note">{blocked}</p> : movable.length === 0
        ? (
          <p className="field-note">
            No line can be transferred: lines with sold quantity stay on their ticket.
          </p>
        )
        : (
          <>
            <Select
              label="Transfer To"
              options={options}
              value={target}
              onChange={(v) => {
                setTarget(v);
                setErrors((e) => (e.to_ticket_id ? { ...e, to_ticket_id: "" } : e));
              }}
              error={errors.to_ticket_id}
            />
            <ScanButton
              label="Scan"
              title="Scan lines to transfer"
              hint="Scan each unit's QR label (camera or USB scanner) or type its serial number to pick its line."
              keepOpen
              onScan={scan}
            />
            <LinePicker
              lines={movable}
              value={selected}
              onChange={(v) => {
                setSelected(v);
                setTouched(true);
                setErrors((e) => (e.line_ids ? { ...e, line_ids: "" } : e));
              }}
              touched={touched}
              error={errors.line_ids}
            />
          </>
        )}
    </FormDialog>
  );
}
