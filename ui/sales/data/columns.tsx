import { invoiceNumber } from "../tickets/columns.tsx";
import type { DataColumn } from "../../components/DataTable.tsx";
import { Icon } from "../../components/icons.tsx";
import { formatListDate, formatNumber, money, unitPrice } from "../../../lib/format.ts";
import { EXPENDABLE_HELD, HANDLED, NOT_HANDLED } from "../../../api/sales/lines/rules.ts";
import { Day } from "../../lib/time_zone.tsx";
import type { SalesRow } from "./types.ts";

const clip = (text: string) => <span className="cell-clip" title={text}>{text}</span>;
const BADGES = {
  [HANDLED]: { icon: "checkCircle", color: "var(--success)" },
  [EXPENDABLE_HELD]: { icon: "receipt", color: "var(--info)" },
  [NOT_HANDLED]: { icon: "flag", color: "var(--danger)" },
} as const;

/**
 * The line's status (its `calculated_inventory_status`): a green badge when it is fully checked in (or
 * sold) and holds nothing, a receipt when it is an expendable whose stock the invoice's approval uses up,
 * else a red flag. The tooltip text is also the image's accessible name, so it is not told by colour alone.
 */
export function StatusBadge({ status }: { status: string }) {
  const badge = BADGES[status as keyof typeof BADGES] ?? BADGES[NOT_HANDLED];
  return (
    <span
      role="img"
      aria-label={status}
      title={status}
      style={{ display: "inline-flex", color: badge.color, verticalAlign: "middle" }}
    >
      <Icon name={badge.icon} size={20} />
    </span>
  );
}

/** The spec's 21 columns; ids the API sorts by are sortable. */
export const SALES_COLUMNS: DataColumn<SalesRow>[] = [
  {
    id: "status",
    header: "Status",
    sortable: false,
    essential: true,
    cell: (r) => <StatusBadge status={r.calculated_inventory_status} />,
  },
  { id: "ticket_number", header: "Ticket #", essential: true, cell: (r) => r.ticket.ticket_number },
  {
    id: "invoice_number",
    header: "Inv #",
    cell: (r) =>
      r.ticket.invoice_number
        ? invoiceNumber(r.ticket.invoice_number, (r.ticket as { invoice_revision?: number }).invoice_revision)
        : "",
  },
  {
    id: "invoice_date",
    header: "Inv Date",
    cell: (r) => <span className="nowrap">{formatListDate(r.ticket.invoice_date)}</span>,
  },
  {
    id: "start_date",
    header: "Start",
    // Instants: the day on the company's clock, as the From/To filters count them.
    cell: (r) => (
      <span className="nowrap">
        <Day value={r.start_date} />
      </span>
    ),
  },
  {
    id: "end_date",
    header: "End",
    cell: (r) => (
      <span className="nowrap">
        <Day value={r.end_date} />
      </span>
    ),
  },
  { id: "duration", header: "Duration/Addl. Days", cell: (r) => formatNumber(r.duration) },
  { id: "customer", header: "Customer", cell: (r) => clip(r.customer.name) },
  { id: "serial_number", header: "Serial #", essential: true, cell: (r) => r.sales_inventory.serial_number },
  { id: "item_number", header: "Item #", cell: (r) => r.sales_inventory.item.item_number },
  { id: "item_description", header: "Item", cell: (r) => clip(r.sales_inventory.item.item_description) },
  { id: "business_unit", header: "Business Unit", cell: (r) => r.business_unit?.name ?? "" },
  { id: "product_line", header: "Product Line", cell: (r) => r.product_line?.name ?? "" },
  { id: "sub_product_line", header: "Sub Product Line", cell: (r) => r.sub_product_line?.name ?? "" },
  { id: "sales_rep", header: "Sales Rep", cell: (r) => r.sales_rep?.name ?? "" },
  { id: "quantity", header: "Quantity", cell: (r) => formatNumber(r.quantity) },
  { id: "minimum_rate", header: "Min Rate", cell: (r) => unitPrice(r.minimum_rate) },
  { id: "price", header: "Price/Addl. Day Rate", cell: (r) => unitPrice(r.price) },
  {
    id: "discount",
    header: "Discount",
    cell: (r) => (r.discount === null || r.discount === undefined ? "" : `${formatNumber(r.discount)}%`),
  },
  { id: "calculated_tax", header: "Tax", sortable: false, cell: (r) => money(r.calculated_tax) },
  { id: "calculated_total", header: "Total", sortable: false, cell: (r) => money(r.calculated_total) },
];
