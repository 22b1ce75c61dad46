import type { ReactNode } from "react";
import { Icon } from "../../components/icons.tsx";
import type { CheckInEntry } from "./lines.ts";
import { ACTIONS_WIDTH, type Column, columnFor, layoutColumns, pin, PINNED } from "./line_columns.tsx";
import { CheckInCells } from "./CheckInCells.tsx";
import { useReorder } from "./useReorder.ts";
import type { Line } from "./types.ts";

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
 * A ticket's line items: the company's columns (`line_columns.tsx`), then the row actions; Tax, Total,
 * Status and Actions stay at the right edge at any width while the others scroll sideways
 * (`layoutColumns`). Rows are dragged by their handle; with the handle focused, Arrow Up and Arrow Down
 * move the line one place, announced (`useReorder`). In check-in mode each row gains select, Date,
 * # In, Remove Quantity (Itemized only), # Sold and # Reclass (`CheckInCells`).
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
  const { announce, rowProps, handleProps } = useReorder(lines, props.onMove);

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
          {lines.map((l, index) => (
            <tr key={l.id} data-line-id={l.id} draggable={reorder} {...rowProps(index, l)}>
              {reorder && (
                <td>
                  <span {...handleProps(index, l)}>
                    <Icon name="dragHandle" size={20} />
                  </span>
                </td>
              )}
              {checkIn && (
                <CheckInCells
                  line={l}
                  entry={checkIn.entries[l.id]}
                  error={checkIn.errors[l.id]}
                  set={checkIn.set}
                />
              )}
              {cols.map((c) => <td key={c.key} {...cellProps(c)}>{c.cell(l)}</td>)}
              <td {...actions} className={`${actions.className} nowrap`}>{props.actions(l)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="sr-only" aria-live="polite">{announce}</div>
    </div>
  );
}
