import { api } from "../lib/api.ts";
import { type ListParams, useListState } from "./list_state.ts";
import { useRowActions } from "./row_actions.ts";

/**
 * A list island with row dialogs: the list's state (`useListState`) and its row actions
 * (`useRowActions`), deleting a row with `DELETE <endpoint>/<id>` unless `del` says otherwise.
 */
export function useCrudList<P extends ListParams, T extends { id: number }>(
  opts: Parameters<typeof useListState<P, T>>[0],
  del?: (row: T) => Promise<{ message?: string } | undefined>,
) {
  const list = useListState<P, T>(opts);
  const actions = useRowActions<T>(
    list,
    del ?? ((row) => api<{ message?: string }>(`${opts.endpoint}/${row.id}`, { method: "DELETE" })),
  );
  return { list, ...actions };
}
