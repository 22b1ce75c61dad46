import type { CSSProperties, ReactNode } from "react";
import { formatNumber, money, unitPrice } from "../../../lib/format.ts";
import { StatusBadge } from "../data/columns.tsx";
import { DateTime } from "../../lib/time_zone.tsx";
import type { Line } from "./types.ts";
import { SerialLink } from "../../components/SerialLink.tsx";

/**
 * The line table's columns: each column a company may choose (`columns.ts` resolves its choice), the
 * layout that keeps Tax, Total and Status in view beside Actions, and the cell that says which line a row
 * is.
 */

/** One column of the line table: its company key, header and cell. */
export interface Column {
  key: string;
  header: string;
  cell: (l: Line) => ReactNode;
  numeric?: boolean;
  /** a price or a figure of the bill: left out of a line's card in check-in mode, to keep the card short */
  billing?: boolean;
}

const pct = (n: number | null) => (n === null || n === undefined ? "" : `${formatNumber(n)}%`);

/** Every column a company may choose, by key; min-rate mode renames duration and price. */
export function columnFor(key: string, minRate: boolean): Column | undefined {
  const c = columnOf(key, minRate);
  return c && { ...c, key };
}

/**
 * The key columns, kept in view at the table's right edge with Actions where the table has room for them
 * (the others, check-in's included, scroll sideways inside the table), and their fixed widths in pixels.
 * They come last, in the company's order; the other columns keep theirs. In check-in mode only Status
 * stays with Actions (`CHECK_IN_PINNED`): the room goes to the line's identity and its inputs.
 */
export const PINNED: Record<string, number> = { tax: 104, total: 116, status: 76 };
export const CHECK_IN_PINNED = ["status"];
export const ACTIONS_WIDTH = 156;

/**
 * The columns that say which line a row is. Check-in mode shows them as one cell at the left
 * (`LineIdentity`), beside the inputs, and leaves them out of the columns; on a narrow screen that cell
 * heads each line's card.
 */
export const IDENTITY = new Set(["order", "serial_number", "item_number", "item_description"]);

/**
 * The company's columns with the key ones (those of `keys` that are in `PINNED`) moved last, and each
 * pinned column's offset from the right.
 */
export function layoutColumns<C extends { key: string }>(
  cols: C[],
  keys: string[] = Object.keys(PINNED),
): { cols: C[]; right: Map<string, number> } {
  const pinned = cols.filter((c) => PINNED[c.key] && keys.includes(c.key));
  const right = new Map<string, number>();
  let at = ACTIONS_WIDTH;
  for (const c of [...pinned].reverse()) {
    right.set(c.key, at);
    at += PINNED[c.key];
  }
  return { cols: [...cols.filter((c) => !right.has(c.key)), ...pinned], right };
}

/**
 * A pinned cell's class and style: sticky at `right`, exactly `width` wide (as custom properties, so the
 * stylesheet lets the cell go where there is no room to pin it: `ui/styles.css`).
 */
export const pin = (right: number, width: number, edge: boolean, numeric?: boolean) => ({
  className: ["pin-right", edge ? "pin-edge" : "", numeric ? "num" : ""].filter(Boolean).join(" "),
  style: { "--pin-at": `${right}px`, "--pin-w": `${width}px` } as CSSProperties,
});

/**
 * Which line a row is: its order, serial number (when it has one) and item number with the item's
 * description.
 */
export function LineIdentity({ line: l }: { line: Line }) {
  const item = l.sales_inventory.item;
  const serial = l.sales_inventory.serial_number;
  return (
    <>
      <span className="line-ident-head">
        <span className="muted">#{l.order}</span>{" "}
        <strong>{serial.trim() ? <SerialLink serial={serial} /> : item.item_number}</strong>
      </span>
      <span className="line-ident-item">
        {[serial.trim() ? item.item_number : "", item.item_description].filter(Boolean).join(" · ")}
      </span>
    </>
  );
}

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
      return { header: "Min Rate", cell: (l) => unitPrice(l.minimum_rate), numeric: true, billing: true };
    case "duration":
      return {
        header: minRate ? "Addl. Days" : "Duration",
        cell: (l) => formatNumber(l.duration),
        numeric: true,
      };
    case "price":
      return {
        header: minRate ? "Addl. Day Rate" : "Price",
        cell: (l) => unitPrice(l.price),
        numeric: true,
        billing: true,
      };
    case "discount":
      return { header: "Discount", cell: (l) => pct(l.discount), numeric: true, billing: true };
    case "markup":
      return { header: "Markup", cell: (l) => pct(l.markup), numeric: true, billing: true };
    case "tax":
      return { header: "Tax", cell: (l) => money(l.calculated_tax), numeric: true, billing: true };
    case "total":
      return { header: "Total", cell: (l) => money(l.calculated_total), numeric: true, billing: true };
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
