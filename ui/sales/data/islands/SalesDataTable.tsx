import { useEffect } from "react";
import { ListTable } from "../../../components/ListTable.tsx";
import { Icon } from "../../../components/icons.tsx";
import { DownloadButton } from "../../../components/ListButtons.tsx";
import { useCrudList } from "../../../components/crud_list.ts";
import { CrudDialogs } from "../../../components/CrudDialogs.tsx";
import { Checkbox } from "../../../primitives/Checkbox.tsx";
import { FilterFields } from "../../../components/FilterFields.tsx";
import { SALES_COLUMNS } from "../columns.tsx";
import { PREFILL_KEYS, SALES_FILTERS, type SalesProps, type SalesQuery, type SalesRow } from "../types.ts";

const ENDPOINT = "/api/sales/sales";
const SIZES = [10, 50, 100, 200] as const;

/**
 * Sales Data: twelve filters (text ones debounced 300 ms) and 'Invoiced Only', Download, sort and
 * paging in the URL; for sales-admin, rows expand to Delete.
 */
export default function SalesDataTable(props: SalesProps) {
  const crud = useCrudList<SalesQuery, SalesRow>({
    path: "/sales/data",
    endpoint: ENDPOINT,
    query: props.query,
    data: props.data,
  });
  const { list, hydrated, setDeleting } = crud;
  const { query } = list;

  // A link's serial, item, ticket or invoice number has prefilled its filter (on the server): take
  // it out of the address bar; the filter stays applied.
  useEffect(() => {
    const url = new URL(location.href);
    const had = PREFILL_KEYS.filter((k) => url.searchParams.has(k));
    if (!had.length) return;
    for (const k of had) url.searchParams.delete(k);
    history.replaceState(history.state, "", url.pathname + url.search + url.hash);
  }, []);

  const details = props.can.delete
    ? (r: SalesRow) => (
      <div className="row-details row-details-sticky">
        <div className="row-actions">
          <button
            type="button"
            className="btn btn-danger-outline"
            aria-label={`Delete line ${r.sales_inventory.serial_number} on ${r.ticket.ticket_number}`}
            onClick={() => setDeleting(r)}
          >
            <Icon name="delete" size={18} />Delete
          </button>
        </div>
      </div>
    )
    : undefined;

  return (
    <>
      <div className="toolbar inspection-searches">
        <FilterFields
          fields={SALES_FILTERS}
          list={list}
          textDebounceMs={300}
        />
        <Checkbox
          isSelected={query.isInvoice}
          isDisabled={!hydrated}
          onChange={(on) => list.update({ isInvoice: on, page: 1 })}
        >
          Invoiced Only
        </Checkbox>
        <span className="spacer" />
        <DownloadButton crud={crud} endpoint={ENDPOINT} />
      </div>
      <ListTable
        list={list}
        sizes={SIZES}
        label="Sales Data"
        columns={SALES_COLUMNS}
        rowId={(r) => String(r.id)}
        renderExpanded={details}
        emptyText="No Sales Found"
        loadingText="Downloading Sales Data..."
        hydrated={hydrated}
      />
      <CrudDialogs
        crud={crud}
        question="Are you sure you want to delete this item?"
      />
    </>
  );
}
