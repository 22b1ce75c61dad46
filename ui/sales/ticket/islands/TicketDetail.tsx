import { useEffect, useMemo, useRef, useState } from "react";
import { Button } from "react-aria-components";
import { Icon } from "../../../components/icons.tsx";
import { Confirm } from "../../../primitives/Confirm.tsx";
import { Select } from "../../../primitives/Select.tsx";
import { TextField } from "../../../primitives/TextField.tsx";
import { api } from "../../../lib/api.ts";
import { navigateWithSnack, setLoading, showError, showSnack } from "../../../lib/events.ts";
import { formatDate, formatDateTime, money, toZonedInput } from "../../../../lib/format.ts";
import { useTimeZone } from "../../../lib/time_zone.tsx";
import { useHydrated } from "../../../lib/hooks.ts";
import { CompanyLogo } from "../../../shell/CompanyLogo.tsx";
import { DisputedFlag } from "../../tickets/columns.tsx";
import { STATUS_LABELS } from "../../tickets/types.ts";
import { pageOf } from "../../lines/columns.ts";
import {
  type CheckInEntry,
  emptyEntry,
  moved,
  planCheckIn,
  searchLines,
  serviceRange,
} from "../../lines/lines.ts";
import { LineAction, LineTable } from "../../lines/LineTable.tsx";
import { LineForm } from "../../lines/LineForm.tsx";
import { InventoryLogDialog } from "../../lines/InventoryLogDialog.tsx";
import { ReclassDialog } from "../../lines/ReclassDialog.tsx";
import { RejectionDialog } from "../RejectionDialog.tsx";
import { TicketEditDialog } from "../TicketEditDialog.tsx";
import { InvoiceDialog } from "../InvoiceDialog.tsx";
import { TransferDialog } from "../../lines/TransferDialog.tsx";
import { BillBackDialog } from "../../lines/BillBackDialog.tsx";
import { DownloadDialog } from "../DownloadDialog.tsx";
import { dialogFor, statusChoices } from "../status.ts";
import type { DetailProps, DialogProps, TicketDetail as Ticket } from "../types.ts";
import type { Line } from "../../lines/types.ts";

type Open =
  | { kind: "line"; line: Line | null }
  | { kind: "delete"; line: Line }
  | { kind: "log"; line: Line }
  | { kind: "reclass" }
  | { kind: "reject" }
  | { kind: "ticket"; status: string }
  | { kind: "invoice"; status: string }
  | { kind: "transfer" }
  | { kind: "billBack" }
  | { kind: "download" };

/** The header's facts: numbers, status, parties and dates. */
function Header({ t, lines, company }: { t: Ticket; lines: Line[]; company: DetailProps["company"] }) {
  const range = serviceRange(lines);
  const timeZone = useTimeZone();
  const facts: [string, string | undefined][] = [
    [t.isQuote || t.status === "QUOTE" ? "Quote #" : "Ticket #", t.ticket_number],
    ["Invoice #", t.invoice_number ?? undefined],
    ["Status", STATUS_LABELS[t.status] ?? t.status],
    ["Customer", t.customer?.name],
    ["Sales Rep", t.sales_rep?.name],
    ["Ticket Date", formatDate(t.ticket_date)],
    ["Invoice Date", t.invoice_date ? formatDate(t.invoice_date) : undefined],
    [
      "Service Dates",
      range.from && !(t.isQuote || t.status === "QUOTE")
        ? `${formatDateTime(range.from, timeZone)} to ${formatDateTime(range.to, timeZone)}`
        : undefined,
    ],
    ["Business Unit", t.business_unit?.name],
    ["Location", t.location || undefined],
  ];
  return (
    <div className="ticket-head">
      <div className="ticket-logo">
        <CompanyLogo settings={company.settings} name={company.name} fit={90} />
      </div>
      <dl className="ticket-facts">
        {facts.filter(([, v]) => v).map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
        {t.disputed && (
          <div>
            <dt>Disputed</dt>
            <dd>
              <DisputedFlag /> latest rejection unresolved
            </dd>
          </div>
        )}
      </dl>
    </div>
  );
}

function Totals({ t }: { t: Ticket }) {
  const x = t.totals;
  const rows: [string, number][] = [
    ["Subtotal", x.subtotal],
    ["Markup", x.markup],
    ["Discount", x.discount ? -x.discount : 0],
    ["State Tax", x.state_tax],
    ["County Tax", x.county_tax],
    ["City Tax", x.city_tax],
  ];
  return (
    <dl className="ticket-totals" aria-label="Totals">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{money(v)}</dd>
        </div>
      ))}
      <div className="grand">
        <dt>Grand Total</dt>
        <dd>{money(x.grandtotal)}</dd>
      </div>
    </dl>
  );
}

/**
 * The ticket detail screen: header, totals, the search over the lines, the line table (drag and
 * keyboard reordering, check-in mode) and every action with its dialog. After each change the
 * ticket and its lines are fetched again; saves that leave the screen go where the spec says.
 */
export default function TicketDetail(props: DetailProps) {
  const { can } = props;
  const hydrated = useHydrated();
  const timeZone = useTimeZone();
  const [ticket, setTicket] = useState(props.ticket);
  const [lines, setLines] = useState(props.lines);
  const [search, setSearch] = useState("");
  const [open, setOpen] = useState<Open | null>(null);
  const [checkInMode, setCheckInMode] = useState(false);
  const [entries, setEntries] = useState<Record<number, CheckInEntry>>({});
  const [entryErrors, setEntryErrors] = useState<Record<number, string>>({});
  const [busy, setBusy] = useState(false);
  const [statusPick, setStatusPick] = useState<string | null>(null);
  const fetches = useRef(0);

  const isQuote = ticket.isQuote || ticket.status === "QUOTE";
  const isInvoice = ticket.isInvoice || ticket.status === "APP";
  const page = pageOf(ticket);
  const columns = props.columns[page][ticket.use_min_rate_logic ? "minRate" : "normal"];
  const shown = useMemo(() => searchLines(lines, search, timeZone), [lines, search, timeZone]);

  /** The ticket and its lines again (the newest answer wins). */
  const refresh = async () => {
    const n = ++fetches.current;
    setLoading(true);
    try {
      const [t, l] = await Promise.all([
        api<Ticket>(`/api/sales/tickets/${ticket.id}`),
        api<{ results: Line[] }>("/api/sales/sales/ticket", {
          query: { ticket_id: ticket.id, paginate: "false" },
        }),
      ]);
      if (n !== fetches.current) return;
      setTicket(t);
      setLines(l.results);
    } catch (e) {
      showError(e);
    } finally {
      setLoading(false);
    }
  };

  // Leaving the screen (history navigation back to a cached page) closes any open dialog.
  useEffect(() => {
    const close = () => setOpen(null);
    addEventListener("pagehide", close);
    return () => removeEventListener("pagehide", close);
  }, []);

  const dialogProps: DialogProps = {
    ticket,
    lines,
    can,
    onClose: () => setOpen(null),
    onDone: (message) => {
      setOpen(null);
      if (message) showSnack("success", message);
      void refresh();
    },
    navigate: (path, message) => navigateWithSnack(path, message),
  };

  // Reordering: the new order is shown at once and saved; a failure is only logged and the
  // server's order comes back with the refetch.
  const onMove = (from: number, to: number) => {
    const next = moved(lines, from, to);
    setLines(next);
    api("/api/sales/sales/reorder", {
      method: "POST",
      json: { ticket_id: ticket.id, items: next.map((l, i) => ({ id: l.id, order: i + 1 })) },
    }).catch((e) => console.error("reorder failed", e)).finally(() => void refresh());
  };

  const startCheckIn = () => {
    const date = toZonedInput(new Date().toISOString(), timeZone);
    setEntries(Object.fromEntries(lines.map((l) => [l.id, emptyEntry(date)])));
    setEntryErrors({});
    setCheckInMode(true);
  };
  const submitCheckIn = async () => {
    const plan = planCheckIn(ticket.id, lines, entries, timeZone);
    if (!plan.ok) {
      setEntryErrors(plan.errors ?? {});
      if (plan.alert) globalThis.alert(plan.alert);
      return;
    }
    setBusy(true);
    try {
      const r = await api<{ message?: string }>("/api/sales/inventory/check-in", {
        method: "POST",
        json: plan.body,
      });
      showSnack("success", r?.message ?? "Checked in");
      setCheckInMode(false);
      await refresh();
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };

  const deleteLine = async (line: Line) => {
    setBusy(true);
    try {
      const r = await api<{ message?: string }>(`/api/sales/sales/${line.id}`, { method: "DELETE" });
      dialogProps.onDone(r?.message ?? "Line item deleted");
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };

  const choices = statusChoices(ticket, can);
  const onStatus = (value: string) => {
    setStatusPick(null);
    if (!value) return;
    setOpen(
      dialogFor(value) === "ticket" ? { kind: "ticket", status: value } : { kind: "invoice", status: value },
    );
  };

  const hasRejections = ticket.rejections.length > 0;
  const showReject = ticket.status === "RFA" || (ticket.status === "RFB" && hasRejections);
  const editable = !isInvoice;
  const hasSold = lines.some((l) => l.isSold || l.inventory_log.some((e) => e.quantity_sold > 0));
  const reorder = hydrated && editable && !checkInMode && !search.trim() && lines.length > 1;
  const serialOf = (l: Line) => l.sales_inventory.serial_number;

  return (
    <>
      <div className="page-head">
        <h1>
          {`${props.list.title}: ${
            isInvoice && ticket.invoice_number ? ticket.invoice_number : ticket.ticket_number
          }`}
        </h1>
        <a className="btn" href={props.list.path}>Back to {props.list.title}</a>
      </div>
      <Header t={ticket} lines={lines} company={props.company} />
      <div className="ticket-body">
        <div className="toolbar" role="toolbar" aria-label="Ticket actions">
          {editable && !checkInMode && (
            <Button
              className="btn btn-primary"
              isDisabled={!hydrated}
              onPress={() => setOpen({ kind: "line", line: null })}
            >
              <Icon name="add" size={18} /> New Line Item
            </Button>
          )}
          {!isQuote && editable && !checkInMode && (
            <Button className="btn" isDisabled={!hydrated || lines.length === 0} onPress={startCheckIn}>
              <Icon name="check" size={18} /> Check-In
            </Button>
          )}
          {checkInMode && (
            <>
              <Button className="btn btn-primary" isDisabled={busy} onPress={submitCheckIn}>
                Submit Check-In
              </Button>
              <Button className="btn" onPress={() => setOpen({ kind: "reclass" })}>Reclass</Button>
              <Button className="btn" onPress={() => setCheckInMode(false)}>Cancel Check-In</Button>
            </>
          )}
          <Button className="btn" isDisabled={!hydrated} onPress={() => setOpen({ kind: "download" })}>
            <Icon name="download" size={18} /> Download
          </Button>
          <Button
            className="btn"
            isDisabled={!hydrated}
            onPress={() => setOpen({ kind: isInvoice ? "invoice" : "ticket", status: ticket.status })}
          >
            {/* A billed invoice's header is fixed: its edit is the invoice form (Signed, Billed, Paid). */}
            <Icon name="edit" size={18} /> {isInvoice ? "Edit Invoice" : "Edit Ticket"}
          </Button>
          {choices.length > 1 && (
            <Select
              label="Change Status"
              className="field field-inline"
              options={choices.filter((c) => c.id !== ticket.status)}
              value={statusPick}
              isDisabled={!hydrated}
              onChange={onStatus}
            />
          )}
          {!isQuote && editable && (
            <Button
              className="btn"
              isDisabled={!hydrated || lines.length === 0}
              onPress={() => setOpen({ kind: "transfer" })}
            >
              <Icon name="swap" size={18} /> Transfer
            </Button>
          )}
          {ticket.status === "APP" && hasSold && (
            <Button
              className="btn"
              isDisabled={!hydrated}
              onPress={() => setOpen({ kind: "billBack" })}
            >
              Bill Back
            </Button>
          )}
          {showReject && (
            <Button
              className="btn btn-danger-outline"
              isDisabled={!hydrated}
              onPress={() => setOpen({ kind: "reject" })}
            >
              {ticket.status === "RFA" ? "Reject" : "Rejection Notice"}
            </Button>
          )}
        </div>
        <div className="toolbar">
          <TextField
            label="Search line items"
            value={search}
            onChange={setSearch}
          />
          <span className="muted">
            {search.trim()
              ? `${shown.length} of ${lines.length} lines`
              : `${lines.length} ${lines.length === 1 ? "line" : "lines"}`}
          </span>
        </div>
        <LineTable
          lines={shown}
          columns={columns}
          minRate={ticket.use_min_rate_logic}
          emptyText={lines.length === 0 ? "No line items yet" : "No line items match the search"}
          reorder={reorder}
          onMove={onMove}
          checkIn={checkInMode
            ? {
              entries,
              errors: entryErrors,
              set: (id, patch) => setEntries((e) => ({ ...e, [id]: { ...e[id], ...patch } })),
            }
            : undefined}
          actions={(l) => (
            <>
              {editable && can.admin && (
                <LineAction
                  icon="edit"
                  label={`Edit line ${serialOf(l)}`}
                  onPress={() => setOpen({ kind: "line", line: l })}
                />
              )}
              {!isQuote && (
                <LineAction
                  icon="history"
                  label={`Inventory log ${serialOf(l)}`}
                  onPress={() => setOpen({ kind: "log", line: l })}
                />
              )}
              {editable && can.admin && (
                <LineAction
                  icon="delete"
                  label={`Delete line ${serialOf(l)}`}
                  onPress={() => setOpen({ kind: "delete", line: l })}
                />
              )}
            </>
          )}
        />
        <Totals t={ticket} />
        {ticket.notes && (
          <section className="ticket-notes">
            <h2>Notes</h2>
            <p className="pre-wrap">{ticket.notes}</p>
          </section>
        )}
      </div>
      {open?.kind === "line" && <LineForm {...dialogProps} line={open.line} />}
      {open?.kind === "delete" && (
        <Confirm
          isOpen
          question="Are you sure you want to delete this item?"
          busy={busy}
          onCancel={() => setOpen(null)}
          onConfirm={() => deleteLine(open.line)}
        />
      )}
      {open?.kind === "log" && <InventoryLogDialog line={open.line} onClose={() => setOpen(null)} />}
      {open?.kind === "reclass" && <ReclassDialog {...dialogProps} />}
      {open?.kind === "reject" && <RejectionDialog {...dialogProps} />}
      {open?.kind === "ticket" && <TicketEditDialog {...dialogProps} status={open.status} />}
      {open?.kind === "invoice" && <InvoiceDialog {...dialogProps} status={open.status} />}
      {open?.kind === "transfer" && <TransferDialog {...dialogProps} />}
      {open?.kind === "billBack" && <BillBackDialog {...dialogProps} />}
      {open?.kind === "download" && <DownloadDialog {...dialogProps} />}
    </>
  );
}
