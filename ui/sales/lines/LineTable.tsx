import { type KeyboardEvent, type ReactNode, useRef, useState } from "react";
import { Button } from "react-aria-components";
import { Icon } from "../../components/icons.tsx";
import { formatNumber, money } from "../../../lib/format.ts";
import { StatusBadge } from "../data/columns.tsx";
import { HANDLED } from "../../../api/sales/lines/schemas.ts";
import { type CheckInEntry, logFigures } from "./lines.ts";
import { DateTime } from "../../lib/time_zone.tsx";
import type { Line } from "./types.ts";

interface Column {
  key: string;
  header: string;
  cell: (l: Line) => ReactNode;
  numeric?: boolean;
}

const pct = (n: number | null) => (n === null || n === undefined ? "" : `${formatNumber(n)}%`);

/** Every column a company may choose, by key; min-rate mode renames duration and price. */
function columnFor(key: string, minRate: boolean): Column | undefined {
  const c = columnOf(key, minRate);
  return c && { ...c, key };
}

/**
 * The key columns, kept in view at the table's right edge with Actions whatever the width (the others,
 * check-in's included, scroll sideways inside the table), and their fixed widths in pixels. They come
 * last, in the company's order; the other columns keep theirs.
 */
const PINNED: Record<string, number> = { tax: 104, total: 116, status: 76 };
const ACTIONS_WIDTH = 156;

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
const pin = (right: number, width: number, edge: boolean, numeric?: boolean) => ({
  className: ["pin-right", edge ? "pin-edge" : "", numeric ? "num" : ""].filter(Boolean).join(" "),
  style: { right, width, minWidth: width, maxWidth: width },
});

function columnOf(key: string, minRate: boolean): Omit<Column, "key"> | undefined {
  switch (key) {
    case "order":
      return { header: "Order", cell: (l) => l.order, numeric: true };
    case "serial_number":
      return { header: "Serial #", cell: (l) => l.sales_inventory.serial_number };
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
      return { header: "Min Rate", cell: (l) => money(l.minimum_rate), numeric: true };
    case "duration":
      return {
        header: minRate ? "Addl. Days" : "Duration",
        cell: (l) => formatNumber(l.duration),
        numeric: true,
      };
    case "price":
      return { header: minRate ? "Addl. Day Rate" : "Price", cell: (l) => money(l.price), numeric: true };
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
        cell: (l) => <StatusBadge handled={l.calculated_inventory_status === HANDLED} />,
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

export interface LineTableProps {
  lines: Line[];
  columns: string[];
  minRate: boolean;
  emptyText: string;
  /** drag (and keyboard) reordering is on: all lines shown, not in check-in mode */
  reorder: boolean;
  onMove: (from: number, to: number) => void;
  /** check-in mode: the entries by line id, their messages, and the change of one */
  checkIn?: {
    entries: Record<number, CheckInEntry>;
    errors: Record<number, string>;
    set: (id: number, patch: Partial<CheckInEntry>) => void;
  };
  actions: (l: Line) => ReactNode;
}

/**
 * A ticket's line items: the company's columns, then the row actions; Tax, Total, Status and Actions
 * stay at the right edge at any width while the others scroll sideways (`layoutColumns`). Rows are dragged by their
 * handle; with the handle focused, Arrow Up and Arrow Down move the line one place (announced). In
 * check-in mode each row gains select, Date, # In, Remove Quantity (Itemized only), # Sold and
 * # Reclass.
 */
export function LineTable(props: LineTableProps) {
  const { lines, reorder, checkIn } = props;
  const { cols, right } = layoutColumns(
    props.columns.map((k) => columnFor(k, props.minRate)).filter((c): c is Column => !!c),
  );
  /** The class and style of a column's cells: pinned at the right, or as numbers or text. */
  const cellProps = (c: Column) => {
    const at = right.get(c.key);
    if (at === undefined) return { className: c.numeric ? "num" : undefined };
    return pin(at, PINNED[c.key], c.key === cols.find((x) => right.has(x.key))?.key, c.numeric);
  };
  const actions = pin(0, ACTIONS_WIDTH, right.size === 0);
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const [dropAt, setDropAt] = useState<number | null>(null);
  const [announce, setAnnounce] = useState("");
  const handles = useRef(new Map<number, HTMLElement>());

  const moveBy = (index: number, delta: number) => {
    const to = index + delta;
    if (to < 0 || to >= lines.length) return;
    const line = lines[index];
    props.onMove(index, to);
    setAnnounce(`Moved ${line.sales_inventory.serial_number} to position ${to + 1} of ${lines.length}`);
    // the handle keeps focus in its new place once the rows re-render
    requestAnimationFrame(() => handles.current.get(line.id)?.focus());
  };
  const onHandleKey = (index: number) => (e: KeyboardEvent) => {
    if (e.key === "ArrowUp" || e.key === "ArrowDown") {
      e.preventDefault();
      moveBy(index, e.key === "ArrowUp" ? -1 : 1);
    }
  };

  const extra = checkIn ? 6 : 0;
  return (
    <div className="table-wrap">
      <table className="data line-table" aria-label="Line items">
        <thead>
          <tr>
            {reorder && <th aria-label="Reorder" />}
            {checkIn && (
              <>
                <th>Select</th>
                <th>Date</th>
                <th># In</th>
                <th>Remove Quantity</th>
                <th># Sold</th>
                <th># Reclass</th>
              </>
            )}
            {cols.map((c) => <th key={c.key} {...cellProps(c)}>{c.header}</th>)}
            <th {...actions}>Actions</th>
          </tr>
        </thead>
        <tbody>
          {lines.length === 0 && (
            <tr>
              <td colSpan={cols.length + extra + (reorder ? 2 : 1)} className="empty">{props.emptyText}</td>
            </tr>
          )}
          {lines.map((l, index) => {
            const serial = l.sales_inventory.serial_number;
            const entry = checkIn?.entries[l.id];
            const error = checkIn?.errors[l.id];
            const f = logFigures(l);
            return (
              <tr
                key={l.id}
                data-line-id={l.id}
                className={dropAt === index && dragFrom !== null && dragFrom !== index
                  ? "drop-target"
                  : undefined}
                draggable={reorder}
                onDragStart={(e) => {
                  setDragFrom(index);
                  e.dataTransfer.effectAllowed = "move";
                  e.dataTransfer.setData("text/plain", String(l.id));
                }}
                onDragOver={(e) => {
                  if (dragFrom === null) return;
                  e.preventDefault();
                  setDropAt(index);
                }}
                onDrop={(e) => {
                  e.preventDefault();
                  if (dragFrom !== null && dragFrom !== index) {
                    props.onMove(dragFrom, index);
                    setAnnounce(
                      `Moved ${lines[dragFrom].sales_inventory.serial_number} to position ${index + 1}`,
                    );
                  }
                  setDragFrom(null);
                  setDropAt(null);
                }}
                onDragEnd={() => {
                  setDragFrom(null);
                  setDropAt(null);
                }}
              >
                {reorder && (
                  <td>
                    <span
                      ref={(el) => {
                        if (el) handles.current.set(l.id, el);
                        else handles.current.delete(l.id);
                      }}
                      role="button"
                      tabIndex={0}
                      className="drag-handle"
                      aria-label={`Reorder ${serial}: Arrow Up or Down moves it`}
                      title="Drag, or focus and press Arrow Up or Down"
                      onKeyDown={onHandleKey(index)}
                    >
                      <Icon name="dragHandle" size={20} />
                    </span>
                  </td>
                )}
                {checkIn && (!entry || l.sales_inventory.item.inventory_type === "Charge Code") && (
                  // a charge code holds no stock: nothing to check in or sell
                  <td colSpan={6} className="muted">Nothing to check in</td>
                )}
                {checkIn && entry && l.sales_inventory.item.inventory_type !== "Charge Code" && (
                  <>
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Select ${serial}`}
                        checked={entry.selected}
                        onChange={(e) => checkIn.set(l.id, { selected: e.target.checked })}
                      />
                    </td>
                    <td>
                      <input
                        type="datetime-local"
                        aria-label={`Date ${serial}`}
                        value={entry.date}
                        onChange={(e) => checkIn.set(l.id, { date: e.target.value })}
                      />
                    </td>
                    <td>
                      <input
                        className="qty-input"
                        inputMode="numeric"
                        aria-label={`Quantity in ${serial}`}
                        aria-invalid={!!error || undefined}
                        disabled={l.isSold}
                        title={l.isSold ? "A sold line is not checked in again" : `In so far: ${f.checkedIn}`}
                        value={entry.quantityIn}
                        onChange={(e) => checkIn.set(l.id, { quantityIn: e.target.value, selected: true })}
                      />
                      {error && <div className="field-error" role="alert">{error}</div>}
                    </td>
                    <td>
                      {l.sales_inventory.item.inventory_type === "Itemized" && (
                        <input
                          type="checkbox"
                          aria-label={`Remove quantity ${serial}`}
                          checked={entry.remove}
                          onChange={(e) => checkIn.set(l.id, { remove: e.target.checked })}
                        />
                      )}
                    </td>
                    <td>
                      <input
                        className="qty-input"
                        inputMode="numeric"
                        aria-label={`Quantity sold ${serial}`}
                        aria-invalid={!!error || undefined}
                        title={`Sold so far: ${f.sold}`}
                        value={entry.quantitySold}
                        onChange={(e) => checkIn.set(l.id, { quantitySold: e.target.value, selected: true })}
                      />
                    </td>
                    <td className="num">{f.reclassed}</td>
                  </>
                )}
                {cols.map((c) => <td key={c.key} {...cellProps(c)}>{c.cell(l)}</td>)}
                <td {...actions} className={`${actions.className} nowrap`}>{props.actions(l)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="sr-only" aria-live="polite">{announce}</div>
    </div>
  );
}

/** An icon button of a line's actions. */
export function LineAction(
  { icon, label, onPress }: { icon: "edit" | "delete" | "history"; label: string; onPress: () => void },
) {
  return (
    <Button
      className={icon === "delete" ? "icon-btn icon-btn-danger" : "icon-btn"}
      aria-label={label}
      onPress={onPress}
    >
      <Icon name={icon} size={20} />
    </Button>
  );
}
