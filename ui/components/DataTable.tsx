import { Fragment, type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import {
  type ColumnDef,
  type ExpandedState,
  flexRender,
  getCoreRowModel,
  useReactTable,
} from "@tanstack/react-table";
import { Icon } from "./icons.tsx";
import { NavLink } from "./NavLink.tsx";
import { SortControl } from "./SortControl.tsx";

export interface DataColumn<T> {
  /** also the `sortBy` value the API takes */
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  sortable?: boolean;
  /** on the column's header, cells and footer cell (a page's own styles, e.g. a sticky key column) */
  className?: string;
  /**
   * One of the few columns that identify a row or hold its actions: on a narrow table (a phone) only these
   * stay as columns and the others move into the row's details, one tap away. A table that marks none
   * shows every column at every width.
   */
  essential?: boolean;
}

export interface SortState {
  sortBy?: string;
  descending?: boolean;
}

/**
 * A server-paged table: rows, sort and paging come from the server (manual mode of
 * @tanstack/react-table). Header sort links carry the next sort in their URL and `aria-sort` on
 * their header; rows can expand to show `renderExpanded(row)` (actions, details).
 *
 * When some columns are `essential` (the table then has the class `narrowing`), a table narrower than
 * 600 px (styles.css, "Narrow tables") shows only those: every other column's header and cells are
 * hidden by CSS (so before any script runs too), and the row's details list them as "header: value"
 * under what `renderExpanded` shows, so a row is read and acted on without scrolling sideways. What only a
 * narrow table has (those lists, the expand control of a table without details of its own, the hidden
 * columns' totals) is rendered once the table is measured narrow: a wide table's markup is what it always
 * was, but for a "Sort by" control (`SortControl`) above the table, rendered on the server and shown by CSS
 * on a narrow table only, where the hidden columns' headers can no longer be tapped to sort.
 */
export function DataTable<T>({
  label,
  data,
  columns,
  rowId,
  sort,
  sortHref,
  onSort,
  renderExpanded,
  emptyText,
  loadingText,
  loading = false,
  hydrated,
  footer,
}: {
  label: string;
  data: T[];
  columns: DataColumn<T>[];
  rowId: (row: T) => string;
  sort: SortState;
  sortHref: (next: Required<SortState>) => string;
  onSort: (next: Required<SortState>) => void;
  renderExpanded?: (row: T) => ReactNode;
  emptyText: string;
  loadingText: string;
  loading?: boolean;
  hydrated: boolean;
  /** A totals row under the rows (while there are any): each column's cell, by column id. */
  footer?: Partial<Record<string, ReactNode>>;
}) {
  const [expanded, setExpanded] = useState<ExpandedState>({});
  const narrow = useNarrow();
  const defs = useMemo<ColumnDef<T>[]>(
    () =>
      columns.map((c) => ({
        id: c.id,
        header: c.header,
        cell: (ctx) => c.cell(ctx.row.original),
      })),
    [columns],
  );
  const table = useReactTable({
    data,
    columns: defs,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => rowId(row),
    getRowCanExpand: () => expands,
    manualPagination: true,
    manualSorting: true,
    manualExpanding: true,
    state: {
      sorting: sort.sortBy ? [{ id: sort.sortBy, desc: !!sort.descending }] : [],
      expanded,
    },
    onExpandedChange: setExpanded,
  });
  const rows = table.getRowModel().rows;
  // Columns without an accessor never count as sortable to the table model: the server sorts.
  const sortable = new Set(columns.filter((c) => c.sortable !== false).map((c) => c.id));
  // Columns hidden on a narrow table, when some are marked essential; their values go to the details.
  const narrowing = columns.some((c) => c.essential);
  const more = narrowing ? columns.filter((c) => !c.essential) : [];
  const moreIds = new Set(more.map((c) => c.id));
  const classOf = new Map(
    columns.map((
      c,
    ) => [c.id, [c.className, moreIds.has(c.id) && "col-more"].filter(Boolean).join(" ") || undefined]),
  );
  const narrowed = narrow.is && more.length > 0;
  // Rows expand when the page has details, or on a narrow table to show the hidden columns.
  const expands = !!renderExpanded || narrowed;
  // Without the page's own details, the expand control and the details row are for a narrow table only.
  const narrowOnly = renderExpanded ? "" : " narrow-only";
  const span = columns.length + (expands ? 1 : 0);
  const moreOf = (row: T) =>
    narrowed && (
      <dl className="row-more">
        {more.map((c) => (
          <Fragment key={c.id}>
            <dt>{c.header}</dt>
            <dd>{c.cell(row)}</dd>
          </Fragment>
        ))}
      </dl>
    );

  return (
    <div className={`table-wrap${loading ? " is-loading" : ""}`} ref={narrow.ref}>
      {loading && rows.length > 0 && <div className="table-progress" aria-hidden="true" />}
      {narrowing && sortable.size > 0 && (
        <SortControl
          columns={columns.filter((c) => sortable.has(c.id))}
          sort={sort}
          sortHref={sortHref}
          onSort={onSort}
        />
      )}
      <table className={narrowing ? "data narrowing" : "data"} aria-label={label} aria-busy={loading}>
        <thead>
          {table.getHeaderGroups().map((g) => (
            <tr key={g.id}>
              {expands && (
                <th className={`expand-col${narrowOnly}`}>
                  <span className="sr-only">Details</span>
                </th>
              )}
              {g.headers.map((h) => {
                const dir = h.column.getIsSorted();
                const next = { sortBy: h.column.id, descending: dir === "asc" };
                return (
                  <th
                    key={h.id}
                    scope="col"
                    className={classOf.get(h.column.id)}
                    aria-sort={dir === "asc" ? "ascending" : dir === "desc" ? "descending" : undefined}
                  >
                    {sortable.has(h.column.id)
                      ? (
                        <NavLink className="sort-link" href={sortHref(next)} onNavigate={() => onSort(next)}>
                          {String(h.column.columnDef.header)}
                          <Icon
                            name={dir === "desc" ? "arrowDown" : dir === "asc" ? "arrowUp" : "unfold"}
                            size={16}
                          />
                        </NavLink>
                      )
                      : String(h.column.columnDef.header)}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td className="empty" colSpan={span}>
                <div className="empty-text">{loading ? loadingText : emptyText}</div>
              </td>
            </tr>
          )}
          {rows.map((row) => {
            const open = row.getIsExpanded();
            return (
              <Fragment key={row.id}>
                <tr className={open ? "expanded" : undefined}>
                  {expands && (
                    <td className={`expand-col${narrowOnly}`}>
                      <button
                        type="button"
                        className="icon-btn expand-btn"
                        aria-label={open ? "Collapse row" : "Expand row"}
                        aria-expanded={open}
                        disabled={!hydrated}
                        onClick={() => row.toggleExpanded()}
                      >
                        <Icon name={open ? "collapse" : "expand"} />
                      </button>
                    </td>
                  )}
                  {row.getVisibleCells().map((cell) => (
                    <td key={cell.id} className={classOf.get(cell.column.id)}>
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  ))}
                </tr>
                {open && expands && (
                  <tr className={`expansion${narrowOnly}`}>
                    <td colSpan={span}>
                      {renderExpanded?.(row.original)}
                      {moreOf(row.original)}
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
        {footer && rows.length > 0 && (
          <tfoot>
            <tr>
              {expands && <td className={`expand-col${narrowOnly}`} />}
              {columns.map((c, i) =>
                i === 0
                  ? <th key={c.id} scope="row" className={classOf.get(c.id)}>{footer[c.id]}</th>
                  : <td key={c.id} className={classOf.get(c.id)}>{footer[c.id]}</td>
              )}
            </tr>
            {narrowed && more.some((c) => footer[c.id] !== undefined) && (
              <tr className="narrow-only">
                <td colSpan={span}>
                  <dl className="row-more">
                    {more.filter((c) => footer[c.id] !== undefined).map((c) => (
                      <Fragment key={c.id}>
                        <dt>{c.header}</dt>
                        <dd>{footer[c.id]}</dd>
                      </Fragment>
                    ))}
                  </dl>
                </td>
              </tr>
            )}
          </tfoot>
        )}
      </table>
      {loading && rows.length > 0 && <p className="sr-only" role="status">{loadingText}</p>}
    </div>
  );
}

/** The width under which a table keeps only its essential columns: styles.css's container query, "Narrow tables". */
const NARROW_PX = 600;

/** Whether the table's wrap (its `ref`) is narrower than `NARROW_PX`, kept up to date as it resizes. */
function useNarrow() {
  const ref = useRef<HTMLDivElement>(null);
  const [is, setIs] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(([entry]) => setIs(entry.contentRect.width < NARROW_PX));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, is };
}
