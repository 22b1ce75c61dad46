import { Fragment, type ReactNode, useMemo, useState } from "react";
import {
  type ColumnDef,
  type ExpandedState,
  flexRender,
  getCoreRowModel,
  useReactTable,
} from "@tanstack/react-table";
import { Icon } from "./icons.tsx";
import { NavLink } from "./NavLink.tsx";

export interface DataColumn<T> {
  /** also the `sortBy` value the API takes */
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  sortable?: boolean;
  /** on the column's header, cells and footer cell (a page's own styles, e.g. a sticky key column) */
  className?: string;
}

export interface SortState {
  sortBy?: string;
  descending?: boolean;
}

/**
 * A server-paged table: rows, sort and paging come from the server (manual mode of
 * @tanstack/react-table). Header sort links carry the next sort in their URL and `aria-sort` on
 * their header; rows can expand to show `renderExpanded(row)` (actions, details).
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
    getRowCanExpand: () => !!renderExpanded,
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
  const classOf = new Map(columns.map((c) => [c.id, c.className]));
  const span = columns.length + (renderExpanded ? 1 : 0);

  return (
    <div className={`table-wrap${loading ? " is-loading" : ""}`}>
      {loading && rows.length > 0 && <div className="table-progress" aria-hidden="true" />}
      <table className="data" aria-label={label} aria-busy={loading}>
        <thead>
          {table.getHeaderGroups().map((g) => (
            <tr key={g.id}>
              {renderExpanded && (
                <th className="expand-col">
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
                  {renderExpanded && (
                    <td className="expand-col">
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
                {open && renderExpanded && (
                  <tr className="expansion">
                    <td colSpan={span}>{renderExpanded(row.original)}</td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
        {footer && rows.length > 0 && (
          <tfoot>
            <tr>
              {renderExpanded && <td className="expand-col" />}
              {columns.map((c, i) =>
                i === 0
                  ? <th key={c.id} scope="row" className={c.className}>{footer[c.id]}</th>
                  : <td key={c.id} className={c.className}>{footer[c.id]}</td>
              )}
            </tr>
          </tfoot>
        )}
      </table>
      {loading && rows.length > 0 && <p className="sr-only" role="status">{loadingText}</p>}
    </div>
  );
}
