import { useEffect, useId, useMemo, useRef, useState } from "react";
import { navigateWithSnack, showSnack } from "../../../../lib/events.ts";
import { useTimeZone } from "../../../../lib/time_zone.tsx";
import { useHydrated } from "../../../../lib/hooks.ts";
import { pageOf } from "../../../lines/columns.ts";
import { searchLines } from "../../../lines/lines.ts";
import { LineTable } from "../../../lines/LineTable.tsx";
import { LineAction } from "../../../lines/LineAction.tsx";
import { useCheckIn } from "../../../lines/useCheckIn.ts";
import type { Line } from "../../../lines/types.ts";
import { Header, Revisions, Totals } from "../TicketHeader.tsx";
import { invoiceNumber } from "../../columns.tsx";
import { TicketToolbar } from "../TicketToolbar.tsx";
import { type Open, preloadDialog, TicketDialogs } from "../TicketDialogs.tsx";
import { useTicketData } from "../useTicketData.ts";
import type { DetailProps, DialogProps } from "../types.ts";
import { returnGateOn } from "../../../../../lib/return_gate.ts";
import { CHECK_IN_FORM_ID } from "../../../lines/checkin_form.ts";
import { requiredTicketFields } from "../../../../../api/sales/tickets/required.ts";

/**
 * The ticket detail screen: header, the actions (TicketToolbar), the search over the lines, the line
 * table (drag and keyboard reordering, check-in mode), totals and notes, and the open dialog
 * (TicketDialogs). After each change the ticket and its lines are fetched again; saves that leave the
 * screen go where the spec says.
 */
export default function TicketDetail(props: DetailProps) {
  const { can } = props;
  const hydrated = useHydrated();
  const timeZone = useTimeZone();
  const { ticket, lines, refresh, move } = useTicketData(props);
  const [search, setSearch] = useState(props.search ?? "");
  const searchId = useId();
  const searchInput = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState<Open | null>(null);
  const checkIn = useCheckIn({
    ticketId: ticket.id,
    lines,
    timeZone,
    onDone: refresh,
    initial: props.checkIn,
  });

  const isQuote = ticket.isQuote || ticket.status === "QUOTE";
  const isInvoice = ticket.isInvoice || ticket.status === "APP";
  const columns = props.columns[pageOf(ticket)][ticket.use_min_rate_logic ? "minRate" : "normal"];
  const shown = useMemo(() => searchLines(lines, search, timeZone), [lines, search, timeZone]);

  // Text typed before the island hydrated is kept (the input was the server's); then the search lives in
  // the address (?search=), replaced as it is typed, so a reload or Back from a line's page keeps it.
  useEffect(() => {
    const typed = searchInput.current?.value;
    if (typed !== undefined && typed !== search) setSearch(typed);
  }, []);
  useEffect(() => {
    const url = new URL(location.href);
    if ((url.searchParams.get("search") ?? "") === search) return;
    if (search) url.searchParams.set("search", search);
    else url.searchParams.delete("search");
    history.replaceState(history.state, "", url.pathname + url.search + url.hash);
  }, [search]);

  // Leaving the screen (history navigation back to a cached page) closes any open dialog.
  useEffect(() => {
    const close = () => setOpen(null);
    addEventListener("pagehide", close);
    return () => removeEventListener("pagehide", close);
  }, []);

  const dialog: DialogProps = {
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
    required: requiredTicketFields(props.company.settings),
  };

  const editable = !isInvoice;
  const reorder = hydrated && editable && !checkIn.active && !search.trim() && lines.length > 1;
  const serialOf = (l: Line) => l.sales_inventory.serial_number;
  const gated = returnGateOn(props.company.settings) &&
    lines.some((l) => l.sales_inventory.item.inventory_type === "Serialized");

  return (
    <>
      <div className="page-head">
        <h1>
          {`${props.list.title}: ${
            isInvoice && ticket.invoice_number
              ? invoiceNumber(ticket.invoice_number, ticket.issued?.revision)
              : ticket.ticket_number
          }`}
        </h1>
        <a className="btn" href={props.list.path}>Back to {props.list.title}</a>
      </div>
      <Header t={ticket} lines={lines} company={props.company} />
      <Revisions t={ticket} />
      <div className="ticket-body">
        <TicketToolbar
          ticket={ticket}
          lines={lines}
          can={can}
          hydrated={hydrated}
          checkIn={checkIn}
          setOpen={setOpen}
        />
        {checkIn.active && (
          // The check-in's fields name this form (`form=`): it posts them before the scripts (decision 056).
          <form
            id={CHECK_IN_FORM_ID}
            method="post"
            action={`${props.list.path}/${ticket.id}/check-in`}
            onSubmit={checkIn.onFormSubmit}
          />
        )}
        {checkIn.active && checkIn.outcome.notice && (
          <p className="alert" role="status" style={{ background: "#e6f4ea", border: "1px solid #a8d5b5" }}>
            {checkIn.outcome.notice}
          </p>
        )}
        {checkIn.active && checkIn.outcome.alert && (
          <p className="alert alert-error" role="alert">{checkIn.outcome.alert}</p>
        )}
        {checkIn.active && gated && (
          <p className="note-hold" role="note">
            Return gate: serialized units checked in go to{" "}
            <strong>Repair</strong>, awaiting inspection, until an inspection of their serial number passes.
          </p>
        )}
        <div className="toolbar">
          {/* native, like the lists' searches: no react-aria code loads with the page (decision 022) */}
          {/* A GET form: Enter searches (on the server) even before the island hydrates. */}
          <form
            method="get"
            role="search"
            className="field"
            onSubmit={(e) => e.preventDefault()}
          >
            <label htmlFor={searchId}>Search line items</label>
            <input
              ref={searchInput}
              id={searchId}
              type="search"
              name="search"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
          </form>
          <span className="muted">
            {search.trim()
              ? `${shown.length} of ${lines.length} ${lines.length === 1 ? "line" : "lines"}`
              : `${lines.length} ${lines.length === 1 ? "line" : "lines"}`}
          </span>
        </div>
        <LineTable
          lines={shown}
          columns={columns}
          minRate={ticket.use_min_rate_logic}
          emptyText={lines.length === 0 ? "No line items yet" : "No line items match the search"}
          reorder={reorder}
          onMove={move}
          checkIn={checkIn.table}
          actions={(l) => (
            <>
              {/* Edit and Delete on line rows are sales-admin's (the server refuses others). */}
              {editable && can.admin && (
                <LineAction
                  icon="edit"
                  label={`Edit line ${serialOf(l)}`}
                  onPress={() => setOpen({ kind: "line", line: l })}
                  preload={preloadDialog("line")}
                />
              )}
              {!isQuote && (
                <LineAction
                  icon="history"
                  label={`Inventory log ${serialOf(l)}`}
                  onPress={() => setOpen({ kind: "log", line: l })}
                  preload={preloadDialog("log")}
                />
              )}
              {editable && can.admin && (
                <LineAction
                  icon="delete"
                  label={`Delete line ${serialOf(l)}`}
                  onPress={() => setOpen({ kind: "delete", line: l })}
                  preload={preloadDialog("delete")}
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
      <TicketDialogs open={open} dialog={dialog} />
    </>
  );
}
