import { api } from "../lib/api.ts";
import { useHydrated } from "../lib/hooks.ts";
import { type ListParams, useListState } from "./list_state.ts";
import { useRowActions } from "./row_actions.ts";

/**
 * A list island's scaffold, the one way list islands hold their state: the list (`useListState`:
 * URL, fetch, paging, sort), whether the island has hydrated (controls stay disabled until then) and
 * the row dialogs (`useRowActions`: `editing`, `deleting`, `saved`, `remove`). Rows are deleted with
 * `DELETE <endpoint>/<id>` unless `del` says otherwise, with the row's version as If-Match (`versionOf`). `R` is the row the dialogs act on, when the
 * list shows other rows too (the inventory's location view).
 */
export function useCrudList<P extends ListParams, T, R extends { id: number } = T & { id: number }>(
  opts: Parameters<typeof useListState<P, T>>[0],
  del?: (row: R) => Promise<{ message?: string } | undefined>,
) {
  const hydrated = useHydrated();
  const list = useListState<P, T>(opts);
  const actions = useRowActions<R>(
    list,
    del ??
      ((row) =>
        api<{ message?: string }>(`${opts.endpoint}/${row.id}`, {
          method: "DELETE",
          version: versionOf(row),
        })),
  );
  return { list, hydrated, ...actions };
}

export type CrudList<P extends ListParams, T, R extends { id: number } = T & { id: number }> = ReturnType<
  typeof useCrudList<P, T, R>
>;

/** A list row's version (decision 038), sent as If-Match by its delete and its edit form. */
export const versionOf = (row: unknown): number | undefined => {
  const v = (row as { version?: unknown } | null)?.version;
  return typeof v === "number" ? v : undefined;
};
