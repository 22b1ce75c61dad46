import {
  type ClipboardEvent,
  type KeyboardEvent,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import type { BatchColumn } from "../lib/paste.ts";

/** A grid cell, both indexes 0-based. */
export interface CellAt {
  row: number;
  column: number;
}

/** The spec's batch spreadsheet: 500 px high, up to 1155 px wide, columns 200 px. */
const HEIGHT = 500;
const COLUMN_WIDTH = 200;
const NUMBER_WIDTH = 56;
/** Rows rendered beyond the visible ones, above and below. */
const OVERSCAN = 8;

const cellOf = (el: EventTarget): CellAt | undefined => {
  const at = (el as HTMLElement).dataset?.cell?.split(".").map(Number);
  return at ? { row: at[0], column: at[1] } : undefined;
};

/**
 * The batch upload's editable grid: a table with one input per cell, labelled 'Row N, <label>'.
 * Only the rows in view (and a few more) are in the page, so thousands of rows stay quick; spacer
 * rows keep the scroll height. Arrow keys and Enter move between cells (left and right once the caret
 * is at the text's edge; Enter on the last row adds one); Tab is the browser's. A block of cells
 * pasted into a cell goes to `onPaste`; a plain value pastes into the cell as usual.
 */
export function BatchGrid({ columns, grid, errors, badRows, readOnly, reveal, onEdit, onPaste, onAddRow }: {
  columns: readonly BatchColumn[];
  grid: string[][];
  /** messages by "row.column" (0-based) */
  errors: Map<string, string>;
  /** 0-based rows named by an error */
  badRows: Set<number>;
  readOnly: boolean;
  /** scrolled into view when it changes: the first bad cell after an upload */
  reveal?: CellAt;
  onEdit: (at: CellAt, value: string) => void;
  onPaste: (at: CellAt, text: string) => void;
  onAddRow: () => void;
}) {
  const id = useId();
  const scroller = useRef<HTMLDivElement>(null);
  const body = useRef<HTMLTableSectionElement>(null);
  const pending = useRef<CellAt | null>(null);
  const [top, setTop] = useState(0);
  const [rowHeight, setRowHeight] = useState(37);

  const first = Math.max(0, Math.floor(top / rowHeight) - OVERSCAN);
  const last = Math.min(grid.length, Math.ceil((top + HEIGHT) / rowHeight) + OVERSCAN);

  const input = (at: CellAt) =>
    body.current?.querySelector<HTMLInputElement>(`[data-cell="${at.row}.${at.column}"]`);
  /** Scrolls a cell into view unless it is in view already (under the sticky header and row numbers). */
  const scrollTo = (at: CellAt) => {
    const el = scroller.current;
    if (!el) return;
    const y = at.row * rowHeight;
    if (y < el.scrollTop || y + 2 * rowHeight > el.scrollTop + el.clientHeight) {
      el.scrollTop = Math.max(0, (at.row - 3) * rowHeight);
    }
    const x = at.column * COLUMN_WIDTH;
    if (x < el.scrollLeft || x + COLUMN_WIDTH + NUMBER_WIDTH > el.scrollLeft + el.clientWidth) {
      el.scrollLeft = x;
    }
  };

  // Each render: measure a row (the spacers depend on it) and focus a cell moved to once it exists.
  useLayoutEffect(() => {
    const h = body.current?.querySelector<HTMLElement>("tr.batch-row")?.getBoundingClientRect().height;
    if (h && Math.abs(h - rowHeight) > 0.1) setRowHeight(h);
    const at = pending.current;
    const el = at && input(at);
    if (el) {
      pending.current = null;
      el.focus();
      el.select();
    }
  });
  useEffect(() => {
    if (reveal) scrollTo(reveal);
  }, [reveal]);

  const moveTo = (at: CellAt) => {
    pending.current = at;
    const el = input(at);
    if (el) {
      pending.current = null;
      el.focus();
      el.select();
    } else scrollTo(at);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTableSectionElement>) => {
    const at = cellOf(e.target);
    if (!at || e.altKey || e.ctrlKey || e.metaKey || e.nativeEvent.isComposing) return;
    const el = e.target as HTMLInputElement;
    const caretAt = (p: number) => el.selectionStart === p && el.selectionEnd === p;
    const { row, column } = at;
    let to: CellAt | undefined;
    if (e.key === "Enter") {
      e.preventDefault();
      if (e.shiftKey) to = row > 0 ? { row: row - 1, column } : undefined;
      else if (row < grid.length - 1 || !readOnly) {
        if (row === grid.length - 1) onAddRow();
        to = { row: row + 1, column };
      }
    } else if (e.shiftKey) return;
    else if (e.key === "ArrowUp" || e.key === "ArrowDown") {
      e.preventDefault();
      const r = row + (e.key === "ArrowUp" ? -1 : 1);
      if (r >= 0 && r < grid.length) to = { row: r, column };
    } else if (e.key === "ArrowLeft" && column > 0 && caretAt(0)) to = { row, column: column - 1 };
    else if (e.key === "ArrowRight" && column < columns.length - 1 && caretAt(el.value.length)) {
      to = { row, column: column + 1 };
    }
    if (to) {
      e.preventDefault();
      moveTo(to);
    }
  };

  const paste = (e: ClipboardEvent<HTMLTableSectionElement>) => {
    const at = cellOf(e.target);
    const text = e.clipboardData.getData("text/plain");
    if (!at || readOnly || !/[\t\r\n]/.test(text)) return;
    e.preventDefault();
    onPaste(at, text);
  };

  const spacer = (key: string, rows: number) =>
    rows > 0 && (
      <tr key={key} className="batch-spacer" aria-hidden="true">
        <td colSpan={columns.length + 1} style={{ height: rows * rowHeight }} />
      </tr>
    );

  return (
    <div
      className="batch-grid"
      ref={scroller}
      style={{ height: HEIGHT }}
      onScroll={(e) => setTop(e.currentTarget.scrollTop)}
    >
      <table
        className="batch-table"
        aria-label="Rows to upload"
        aria-rowcount={grid.length + 1}
        style={{ width: NUMBER_WIDTH + columns.length * COLUMN_WIDTH }}
      >
        <colgroup>
          <col style={{ width: NUMBER_WIDTH }} />
          {columns.map((c) => <col key={c.key} style={{ width: COLUMN_WIDTH }} />)}
        </colgroup>
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col" className="batch-number">Row</th>
            {columns.map((c) => <th key={c.key} scope="col">{c.label}</th>)}
          </tr>
        </thead>
        <tbody ref={body} onKeyDown={onKeyDown} onPaste={paste}>
          {spacer("above", first)}
          {grid.slice(first, last).map((cells, i) => {
            const r = first + i;
            return (
              <tr key={r} className="batch-row" aria-rowindex={r + 2}>
                <th scope="row" className={`batch-number${badRows.has(r) ? " has-error" : ""}`}>{r + 1}</th>
                {columns.map((c, ci) => {
                  const message = errors.get(`${r}.${ci}`);
                  const described = message ? `${id}-${r}-${ci}` : undefined;
                  return (
                    <td key={c.key} className={message ? "has-error" : undefined} title={message}>
                      <input
                        data-cell={`${r}.${ci}`}
                        value={cells[ci] ?? ""}
                        aria-label={`Row ${r + 1}, ${c.label}`}
                        aria-invalid={message ? true : undefined}
                        aria-describedby={described}
                        readOnly={readOnly}
                        autoComplete="off"
                        spellCheck={false}
                        onChange={(e) => onEdit({ row: r, column: ci }, e.target.value)}
                      />
                      {message && <span id={described} className="sr-only">{message}</span>}
                    </td>
                  );
                })}
              </tr>
            );
          })}
          {spacer("below", grid.length - last)}
        </tbody>
      </table>
    </div>
  );
}
