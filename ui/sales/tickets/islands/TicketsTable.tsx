import { useEffect, useState } from "react";
import { ListTable } from "../../../components/ListTable.tsx";
import { FilterFields } from "../../../components/FilterFields.tsx";
import { DownloadButton, NewButton } from "../../../components/ListButtons.tsx";
import { useCrudList } from "../../../components/crud_list.ts";
import { CrudDialogs } from "../../../components/CrudDialogs.tsx";
import { Checkbox } from "../../../primitives/Checkbox.tsx";
import { NativeSelect } from "../../../primitives/NativeSelect.tsx";
import { api } from "../../../lib/api.ts";
import { ticketColumns } from "../columns.tsx";
import { money } from "../../../../lib/format.ts";
import type { TicketRow, TicketSearchKey, TicketsProps, TicketsQuery } from "../types.ts";
import { FLOW_CHOICES, TICKET_PAGE_SIZES } from "../types.ts";
import { lazyDialog } from "../../../lib/lazy_dialog.tsx";

// Loaded when first opened (decision 022).
const TicketForm = lazyDialog(() => import("../TicketForm.tsx").then((m) => m.TicketForm));

const ENDPOINT = "/api/sales/tickets";

/** The business unit's name, fetched with the ticket when its row is first expanded. */
function UnitName({ id, unitId }: { id: number; unitId: number | null }) {
  const [name, setName] = useState<string | null>(unitId ? null : "None");
  useEffect(() => {
    if (!unitId) return;
    const ac = new AbortController();
    api<{ business_unit: { name: string } | null }>(`${ENDPOINT}/${id}`, { signal: ac.signal })
      .then((t) => setName(t.business_unit?.name ?? "None"))
      .catch((e) => {
        if ((e as Error).name !== "AbortError") setName("Unavailable");
      });
    return () => ac.abort();
  }, [id, unitId]);
  return <>{name ?? "Loading..."}</>;
}

/** The expanded row: notes, location, business unit and the totals breakdown. */
function Details({ t }: { t: TicketRow }) {
  const x = t.totals;
  const taxes = x.state_tax + x.county_tax + x.city_tax;
  return (
    <div className="row-details row-details-sticky">
      <dl>
        <dt>Notes</dt>
        <dd className="pre-wrap">{t.notes || "None"}</dd>
        <dt>Location</dt>
        <dd>{t.location || "None"}</dd>
        <dt>Business Unit</dt>
        <dd>
          <UnitName id={t.id} unitId={t.business_unit_id} />
        </dd>
        <dt>Subtotal</dt>
        <dd>{money(x.subtotal)}</dd>
        <dt>Markup</dt>
        <dd>{money(x.markup)}</dd>
        <dt>Discount</dt>
        <dd>{money(x.discount)}</dd>
        <dt>Taxes</dt>
        <dd>{money(taxes)}</dd>
        <dt>Grand Total</dt>
        <dd>{money(x.grandtotal)}</dd>
      </dl>
    </div>
  );
}

/**
 * One stage list: its searches (300 ms), Hide Paid and Hide Signed, sort and paging, all in this
 * list's URL only; on the Tickets list Ticket Flow and Show Invoiced; New Ticket or New Quote on
 * those two lists.
 */
export default function TicketsTable(props: TicketsProps) {
  const { list: view } = props;
  const { create } = view;
  // A new ticket or quote is the only dialog: the stage lists neither edit nor delete in place.
  const crud = useCrudList<TicketsQuery, TicketRow>({
    path: view.path,
    endpoint: ENDPOINT,
    query: props.query,
    data: props.data,
  });
  const { list, hydrated } = crud;
  const { query } = list;

  const searches: { key: TicketSearchKey; label: string }[] = [
    { key: "search_ticket_number", label: view.flow === "QUOTE" ? "Quote Number" : "Ticket Number" },
    { key: "search_invoice_number", label: "Invoice Number" },
    ...(props.can.searchParties
      ? [
        { key: "search_customer" as const, label: "Customer" },
        { key: "search_sales_rep" as const, label: "Sales Rep" },
      ]
      : []),
  ];

  return (
    <>
      <div className="toolbar inspection-searches">
        {/* The stage and Show Invoiced are in the URL on the Tickets list only. */}
        <FilterFields
          list={list}
          fields={searches}
          omit={view.flowFilter ? [] : ["ticketFlowFilter", "showInvoiced"]}
          textDebounceMs={300}
        />
        {view.flowFilter && (
          <NativeSelect
            label="Ticket Flow"
            className="field field-inline"
            options={FLOW_CHOICES}
            value={query.ticketFlowFilter}
            isDisabled={!hydrated}
            onChange={(flow) =>
              list.update({ ticketFlowFilter: flow as TicketsQuery["ticketFlowFilter"], page: 1 })}
          />
        )}
        {view.flowFilter && props.can.searchParties && (
          <Checkbox
            isSelected={query.showInvoiced ?? false}
            isDisabled={!hydrated}
            onChange={(on) => list.update({ showInvoiced: on ? true : undefined, page: 1 })}
          >
            Show Invoiced
          </Checkbox>
        )}
        <Checkbox
          isSelected={query.hidePaid ?? false}
          isDisabled={!hydrated}
          onChange={(on) => list.update({ hidePaid: on || undefined, page: 1 })}
        >
          Hide Paid
        </Checkbox>
        <Checkbox
          isSelected={query.hideSigned ?? false}
          isDisabled={!hydrated}
          onChange={(on) => list.update({ hideSigned: on || undefined, page: 1 })}
        >
          Hide Signed
        </Checkbox>
        <span className="spacer" />
        <DownloadButton crud={crud} endpoint={ENDPOINT} />
        {create && <NewButton crud={crud} preload={TicketForm.preload} label={create.label} />}
      </div>
      <ListTable
        list={list}
        sizes={TICKET_PAGE_SIZES}
        label={view.title}
        columns={ticketColumns(view)}
        rowId={(t) => String(t.id)}
        renderExpanded={(t) => <Details t={t} />}
        emptyText="No Data Found"
        loadingText={`Downloading ${view.title}...`}
        hydrated={hydrated}
      />
      {create && (
        <CrudDialogs
          crud={crud}
          form={(_, dialog) => <TicketForm isQuote={create.isQuote} required={props.required} {...dialog} />}
        />
      )}
    </>
  );
}
