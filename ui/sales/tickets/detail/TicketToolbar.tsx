import { type ReactNode, useState } from "react";
import { Icon } from "../../../components/icons.tsx";
import { LazySelect } from "../../../primitives/LazySelect.tsx";
import type { Line } from "../../lines/types.ts";
import { dialogFor, statusChoices } from "./status.ts";
import { type Open, preloadDialog } from "./TicketDialogs.tsx";
import { preloadOn } from "../../../lib/lazy_dialog.tsx";
import type { DetailCan, TicketDetail as Ticket } from "./types.ts";
import { ScanButton, type ScanReply } from "../../../scan/ScanButton.tsx";
import { CHECK_IN_FORM_ID, CHECK_IN_MODE, field } from "../../lines/checkin_form.ts";

/** A GET form around one button: before the scripts it loads `query` as a page; once hydrated `run` acts. */
function PageButton({ query, run, children, ...button }: {
  query: Record<string, string>;
  run: () => void;
  children: ReactNode;
  className: string;
  disabled?: boolean;
}) {
  return (
    <form method="get" style={{ display: "contents" }}>
      {Object.entries(query).map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />)}
      <button
        type="submit"
        {...button}
        onClick={(e) => {
          e.preventDefault();
          run();
        }}
      >
        {children}
      </button>
    </form>
  );
}

/**
 * The ticket's actions: New Line Item and Check-In (or, in check-in mode, Submit, Reclass and
 * Cancel), Download, Edit Ticket (Edit Invoice on an invoice), Change Status, Transfer, Bill Back and
 * Reject / Rejection Notice, each as the ticket's state allows. Buttons wait for hydration, but for the
 * check-in's (decision 056): Check-In and Cancel Check-In load the ticket in or out of check-in mode, and the
 * serial field and Submit Check-In post the check-in form, before the scripts; once hydrated they act in place.
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
        <PageButton
          query={{ mode: CHECK_IN_MODE }}
          run={checkIn.start}
          className="btn"
          disabled={lines.length === 0}
        >
          <Icon name="check" size={18} /> Check-In
        </PageButton>
      )}
      {checkIn.active && (
        <>
          {
            /* First of the form's submit buttons, so the form's default: Enter in any of its fields (a USB
              scanner ends each scan with one) selects the serial's line, never sends a half check-in. */
          }
          <div className="field ci-serial" style={{ margin: 0 }}>
            <label htmlFor="ci-serial">Serial number (scan or type)</label>
            <div style={{ display: "flex", gap: 8 }}>
              <input
                id="ci-serial"
                type="search"
                form={CHECK_IN_FORM_ID}
                name={field.serial}
                autoComplete="off"
                enterKeyHint="go"
                maxLength={200}
              />
              <button
                type="submit"
                form={CHECK_IN_FORM_ID}
                name={field.action}
                value="select"
                className="btn nowrap"
              >
                Select line
              </button>
            </div>
          </div>
          <button
            type="submit"
            form={CHECK_IN_FORM_ID}
            name={field.action}
            value="submit"
            className="btn btn-primary"
            disabled={checkIn.busy}
            aria-busy={checkIn.busy || undefined}
          >
            {checkIn.busy ? "Checking in..." : "Submit Check-In"}
          </button>
          {/* A check-in in flight is said to screen readers too (the spec's "Loading please wait..."). */}
          <span className="sr-only" role="status">{checkIn.busy ? "Checking in, please wait..." : ""}</span>
          <ScanButton
            label="Scan"
            disabled={!hydrated}
            title="Scan to check in"
            hint="Scan each returned unit's QR label (camera or USB scanner) or type its serial number."
            keepOpen
            onScan={checkIn.scan}
          />
          <button
            type="button"
            className="btn"
            disabled={!hydrated}
            onClick={() => setOpen({ kind: "reclass" })}
            {...preloadOn(preloadDialog("reclass"))}
          >
            Reclass
          </button>
          <PageButton query={{}} run={checkIn.cancel} className="btn">Cancel Check-In</PageButton>
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
