import type { ReactNode } from "react";
import { Icon } from "../../components/icons.tsx";
import type { CheckInEntry } from "./lines.ts";
import {
  ACTIONS_WIDTH,
  CHECK_IN_PINNED,
  type Column,
  columnFor,
  IDENTITY,
  layoutColumns,
  LineIdentity,
  pin,
  PINNED,
} from "./line_columns.tsx";
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
 * A ticket's line items: the company's columns (`line_columns.tsx`), then the row actions; where the table
 * has room, Tax, Total, Status and Actions stay at the right edge while the others scroll sideways
 * (`layoutColumns`). Rows are dragged by their handle; with the handle focused, Arrow Up and Arrow Down
 * move the line one place, announced (`useReorder`). In check-in mode each row starts with which line it
 * is (`LineIdentity`, kept at the left) followed by select, Date, # In, Remove Quantity (Itemized only),
 * # Sold and # Reclass (`CheckInCells`), and only Status stays pinned with Actions. On a narrow screen
 * each line is a card headed by its identity, its cells labelled, its actions at the foot (`ui/styles.css`).
 */
export function LineTable(props: LineTableProps) {
  const { lines, reorder, checkIn } = props;
  const chosen = props.columns.map((k) => columnFor(k, props.minRate)).filter((c): c is Column => !!c);
  const { cols, right } = checkIn
    ? layoutColumns(chosen.filter((c) => !IDENTITY.has(c.key)), CHECK_IN_PINNED)
    : layoutColumns(chosen);
  /** The class, style and card label of a column's cells: pinned at the right, or as numbers or text. */
  const cellProps = (c: Column) => {
    const kind = IDENTITY.has(c.key) ? "ident-col" : c.billing ? "billing" : "";
    const at = right.get(c.key);
    if (at === undefined) {
      return { className: [c.numeric ? "num" : "", kind].filter(Boolean).join(" ") || undefined };
    }
    const pinned = pin(at, PINNED[c.key], c.key === cols.find((x) => right.has(x.key))?.key, c.numeric);
    return { ...pinned, className: [pinned.className, kind].filter(Boolean).join(" ") };
  };
  const actions = pin(0, ACTIONS_WIDTH, right.size === 0);
  const { announce, rowProps, handleProps } = useReorder(lines, props.onMove);

  const extra = checkIn ? 6 : 0;
  return (
    <div className="table-wrap line-table-wrap">
      <table className={checkIn ? "data line-table checking-in" : "data line-table"} aria-label="Line items">
        <thead>
          <tr>
            {reorder && <th aria-label="Reorder" className="line-handle" />}
            <th className="line-ident">Line</th>
            {checkIn && (
              <>
                <th>Select</th>
                <th>Date</th>
                <th># In</th>
                <th className="ci-remove">Remove Quantity</th>
                <th># Sold</th>
                <th># Reclass</th>
              </>
            )}
            {cols.map((c) => <th key={c.key} {...cellProps(c)}>{c.header}</th>)}
            <th {...actions} className={`${actions.className} line-actions`}>Actions</th>
          </tr>
        </thead>
        <tbody>
          {lines.length === 0 && (
            <tr>
              <td colSpan={cols.length + extra + (reorder ? 3 : 2)} className="empty">{props.emptyText}</td>
            </tr>
          )}
          {lines.map((l, index) => (
            <tr key={l.id} data-line-id={l.id} draggable={reorder} {...rowProps(index, l)}>
              {reorder && (
                <td className="line-handle">
                  <span {...handleProps(index, l)}>
                    <Icon name="dragHandle" size={20} />
                  </span>
                </td>
              )}
              <td className="line-ident">
                <LineIdentity line={l} />
              </td>
              {checkIn && (
                <CheckInCells
                  line={l}
                  entry={checkIn.entries[l.id]}
                  error={checkIn.errors[l.id]}
                  set={checkIn.set}
                />
              )}
              {cols.map((c) => <td key={c.key} data-label={c.header} {...cellProps(c)}>{c.cell(l)}</td>)}
              <td {...actions} className={`${actions.className} line-actions nowrap`}>{props.actions(l)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="sr-only" aria-live="polite">{announce}</div>
    </div>
  );
}
