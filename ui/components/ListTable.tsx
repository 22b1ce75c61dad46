import type { ReactNode } from "react";
import { type DataColumn, DataTable, type SortState } from "./DataTable.tsx";
import { type PageState, Pagination } from "./Pagination.tsx";
import type { useListState } from "./list_state.ts";

type ListQuery = PageState & SortState;

/** A list page's table and its pagination, both bound to one `useListState` (URL, fetch, sort, page). */
export function ListTable<P extends ListQuery, T>({ list, sizes, ...table }: {
  list: ReturnType<typeof useListState<P, T>>;
  sizes: readonly number[];
  label: string;
  columns: DataColumn<T>[];
  rowId: (row: T) => string;
  renderExpanded?: (row: T) => ReactNode;
  emptyText: string;
  loadingText: string;
  hydrated: boolean;
  footer?: Partial<Record<string, ReactNode>>;
}) {
  return (
    <>
      <DataTable
        {...table}
        data={list.data.results}
        sort={list.query}
        sortHref={(s) => list.href({ ...s, page: 1 } as Partial<P>)}
        onSort={(s) => list.update({ ...s, page: 1 } as Partial<P>)}
        loading={list.loading}
      />
      <Pagination
        state={list.query}
        total={list.data.total}
        sizes={sizes}
        href={(p) => list.href(p as Partial<P>)}
        onChange={(p) => list.update(p as Partial<P>)}
        hydrated={table.hydrated}
      />
    </>
  );
}
