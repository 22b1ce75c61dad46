import type { ReactNode } from "react";
import { formatNumber, money, unitPrice } from "../../../lib/format.ts";
import { StatusBadge } from "../data/columns.tsx";
import { DateTime } from "../../lib/time_zone.tsx";
import type { Line } from "./types.ts";
import { SerialLink } from "../../components/SerialLink.tsx";

/**
 * The line table's columns: each column a company may choose (`columns.ts` resolves its choice), and
 * the layout that keeps Tax, Total and Status in view beside Actions.
 */

/** One column of the line table: its company key, header and cell. */
export interface Column {
  key: string;
  header: string;
  cell: (l: Line) => ReactNode;
  numeric?: boolean;
}

const pct = (n: number | null) => (n === null || n === undefined ? "" : `${formatNumber(n)}%`);

/** Every column a company may choose, by key; min-rate mode renames duration and price. */
export function columnFor(key: string, minRate: boolean): Column | undefined {
  const c = columnOf(key, minRate);
  return c && { ...c, key };
}

/**
 * The key columns, kept in view at the table's right edge with Actions whatever the width (the others,
 * check-in's included, scroll sideways inside the table), and their fixed widths in pixels. They come
 * last, in the company's order; the other columns keep theirs.
 */
export const PINNED: Record<string, number> = { tax: 104, total: 116, status: 76 };
export const ACTIONS_WIDTH = 156;

/** The company's columns with the key ones moved last, and each pinned column's offset from the right. */
export function layoutColumns<C extends { key: string }>(
  cols: C[],
): { cols: C[]; right: Map<string, number> } {
  const pinned = cols.filter((c) => PINNED[c.key]);
  const right = new Map<string, number>();
  let at = ACTIONS_WIDTH;
  for (const c of [...pinned].reverse()) {
    right.set(c.key, at);
    at += PINNED[c.key];
  }
  return { cols: [...cols.filter((c) => !PINNED[c.key]), ...pinned], right };
}

/** A pinned cell's class and style: sticky at `right`, exactly `width` wide. */
export const pin = (right: number, width: number, edge: boolean, numeric?: boolean) => ({
  className: ["pin-right", edge ? "pin-edge" : "", numeric ? "num" : ""].filter(Boolean).join(" "),
  style: { right, width, minWidth: width, maxWidth: width },
});

function columnOf(key: string, minRate: boolean): Omit<Column, "key"> | undefined {
  switch (key) {
    case "order":
      return { header: "Order", cell: (l) => l.order, numeric: true };
    case "serial_number":
      return { header: "Serial #", cell: (l) => <SerialLink serial={l.sales_inventory.serial_number} /> };
    case "item_number":
      return { header: "Item #", cell: (l) => l.sales_inventory.item.item_number };
    case "item_description":
      return { header: "Item", cell: (l) => l.sales_inventory.item.item_description };
    case "inventory_description":
      return { header: "Inv. Description", cell: (l) => l.sales_inventory.inventory_description };
    case "start_date":
      return {
        header: "Start",
        cell: (l) => (
          <span className="nowrap">
            <DateTime value={l.start_date} />
          </span>
        ),
      };
    case "end_date":
      return {
        header: "End",
        cell: (l) => (
          <span className="nowrap">
            <DateTime value={l.end_date} />
          </span>
        ),
      };
    case "hours":
      return { header: "Hours", cell: (l) => formatNumber(l.hours), numeric: true };
    case "quantity":
      return { header: "Quantity", cell: (l) => formatNumber(l.quantity), numeric: true };
    case "minimum_rate":
      return { header: "Min Rate", cell: (l) => unitPrice(l.minimum_rate), numeric: true };
    case "duration":
      return {
        header: minRate ? "Addl. Days" : "Duration",
        cell: (l) => formatNumber(l.duration),
        numeric: true,
      };
    case "price":
      return { header: minRate ? "Addl. Day Rate" : "Price", cell: (l) => unitPrice(l.price), numeric: true };
    case "discount":
      return { header: "Discount", cell: (l) => pct(l.discount), numeric: true };
    case "markup":
      return { header: "Markup", cell: (l) => pct(l.markup), numeric: true };
    case "tax":
      return { header: "Tax", cell: (l) => money(l.calculated_tax), numeric: true };
    case "total":
      return { header: "Total", cell: (l) => money(l.calculated_total), numeric: true };
    case "status":
      return {
        header: "Status",
        cell: (l) => <StatusBadge status={l.calculated_inventory_status} />,
      };
    case "notes":
      return { header: "Notes", cell: (l) => <span className="cell-clip" title={l.notes}>{l.notes}</span> };
    case "doc":
      return {
        header: "Attachment",
        cell: (l) => {
          const url = l.fileURL;
          return url ? <a href={url} target="_blank" rel="noopener">{l.doc || "Attachment"}</a> : l.doc ?? "";
        },
      };
    case "hide":
      return { header: "Hidden", cell: (l) => (l.custom?.hide ? "Yes" : "") };
  }
  return undefined;
}
