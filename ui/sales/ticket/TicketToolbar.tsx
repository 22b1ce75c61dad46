import { useState } from "react";
import { Icon } from "../../components/icons.tsx";
import { LazySelect } from "../../primitives/LazySelect.tsx";
import type { Line } from "../lines/types.ts";
import { dialogFor, statusChoices } from "./status.ts";
import { type Open, preloadDialog } from "./TicketDialogs.tsx";
import { preloadOn } from "../../lib/lazy_dialog.tsx";
import type { DetailCan, TicketDetail as Ticket } from "./types.ts";
import { ScanButton, type ScanReply } from "../../scan/ScanButton.tsx";

/**
 * The ticket's actions: New Line Item and Check-In (or, in check-in mode, Submit, Reclass and
 * Cancel), Download, Edit Ticket (Edit Invoice on an invoice), Change Status, Transfer, Bill Back and
 * Reject / Rejection Notice, each as the ticket's state allows. Buttons wait for hydration.
 */
export function TicketToolbar({ ticket, lines, can, hydrated, checkIn, setOpen }: {
  ticket: Ticket;
  lines: Line[];
  can: DetailCan;
  hydrated: boolean;
  checkIn: {
    active: boolean;
    busy: boolean;
    start: () => void;
    submit: () => void;
    cancel: () => void;
    scan: (serial: string) => ScanReply;
  };
  setOpen: (open: Open) => void;
}) {
  const [statusPick, setStatusPick] = useState<string | null>(null);
  const isQuote = ticket.isQuote || ticket.status === "QUOTE";
  const isInvoice = ticket.isInvoice || ticket.status === "APP";
  const editable = !isInvoice;
  const choices = statusChoices(ticket, can);
  const onStatus = (value: string) => {
    setStatusPick(null);
    if (!value) return;
    setOpen(
      dialogFor(value) === "ticket" ? { kind: "ticket", status: value } : { kind: "invoice", status: value },
    );
  };
  const showReject = ticket.status === "RFA" || (ticket.status === "RFB" && ticket.rejections.length > 0);
  const hasSold = lines.some((l) => l.isSold || l.inventory_log.some((e) => e.quantity_sold > 0));

  return (
    <div className="toolbar" role="toolbar" aria-label="Ticket actions">
      {editable && !checkIn.active && (
        <button
          type="button"
          className="btn btn-primary"
          disabled={!hydrated}
          onClick={() => setOpen({ kind: "line", line: null })}
          {...preloadOn(preloadDialog("line"))}
        >
          <Icon name="add" size={18} /> New Line Item
        </button>
      )}
      {!isQuote && editable && !checkIn.active && (
        <button
          type="button"
          className="btn"
          disabled={!hydrated || lines.length === 0}
          onClick={() => checkIn.start()}
        >
          <Icon name="check" size={18} /> Check-In
        </button>
      )}
      {checkIn.active && (
        <>
          <button
            type="button"
            className="btn btn-primary"
            disabled={checkIn.busy}
            aria-busy={checkIn.busy || undefined}
            onClick={() => checkIn.submit()}
          >
            {checkIn.busy ? "Checking in..." : "Submit Check-In"}
          </button>
          {/* A check-in in flight is said to screen readers too (the spec's "Loading please wait..."). */}
          <span className="sr-only" role="status">{checkIn.busy ? "Checking in, please wait..." : ""}</span>
          <ScanButton
            label="Scan"
            title="Scan to check in"
            hint="Scan each returned unit's QR label (camera or USB scanner) or type its serial number."
            keepOpen
            onScan={checkIn.scan}
          />
          <button
            type="button"
            className="btn"
            onClick={() => setOpen({ kind: "reclass" })}
            {...preloadOn(preloadDialog("reclass"))}
          >
            Reclass
          </button>
          <button type="button" className="btn" onClick={() => checkIn.cancel()}>Cancel Check-In</button>
        </>
      )}
      <button
        type="button"
        className="btn"
        disabled={!hydrated}
        onClick={() => setOpen({ kind: "download" })}
        {...preloadOn(preloadDialog("download"))}
      >
        <Icon name="download" size={18} /> Download
      </button>
      <button
        type="button"
        className="btn"
        disabled={!hydrated}
        onClick={() => setOpen({ kind: isInvoice ? "invoice" : "ticket", status: ticket.status })}
        {...preloadOn(preloadDialog(isInvoice ? "invoice" : "ticket"))}
      >
        {/* A billed invoice's header is fixed: its edit is the invoice form (Signed, Billed, Paid). */}
        <Icon name="edit" size={18} /> {isInvoice ? "Edit Invoice" : "Edit Ticket"}
      </button>
      {choices.length > 1 && (
        <LazySelect
          label="Change Status"
          className="field field-inline"
          options={choices.filter((c) => c.id !== ticket.status)}
          value={statusPick}
          isDisabled={!hydrated}
          onChange={onStatus}
        />
      )}
      {!isQuote && editable && (
        <button
          type="button"
          className="btn"
          disabled={!hydrated || lines.length === 0}
          onClick={() => setOpen({ kind: "transfer" })}
          {...preloadOn(preloadDialog("transfer"))}
        >
          <Icon name="swap" size={18} /> Transfer
        </button>
      )}
      {ticket.status === "APP" && hasSold && (
        <button
          type="button"
          className="btn"
          disabled={!hydrated}
          onClick={() => setOpen({ kind: "billBack" })}
          {...preloadOn(preloadDialog("billBack"))}
        >
          Bill Back
        </button>
      )}
      {showReject && (
        <button
          type="button"
          className="btn btn-danger-outline"
          disabled={!hydrated}
          onClick={() => setOpen({ kind: "reject" })}
          {...preloadOn(preloadDialog("reject"))}
        >
          {ticket.status === "RFA" ? "Reject" : "Rejection Notice"}
        </button>
      )}
    </div>
  );
}
