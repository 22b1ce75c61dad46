import type { ReactNode } from "react";
import { type DataColumn, DataTable, type SortState } from "./DataTable.tsx";
import { type PageState, Pagination, pastEnd } from "./Pagination.tsx";
import type { useListState } from "./list_state.ts";

type ListQuery = PageState & SortState;

/** Where the rows of a list are when its page is past the end: "there is 1 in all", "there are 24 in all". */
export const pastEndText = (page: number, total: number): string =>
  `Page ${page} is past the end: there ${
    total === 1 ? "is 1" : `are ${total.toLocaleString("en-US")}`
  } in all.`;

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
  // A page past the end of a list with rows is not "No Jobs Found": say where the rows are.
  const beyond = pastEnd(list.query, list.data.total);
  return (
    <>
      <DataTable
        {...table}
        emptyText={beyond ? pastEndText(list.query.page, list.data.total) : table.emptyText}
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
