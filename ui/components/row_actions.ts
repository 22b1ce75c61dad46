import { useState } from "react";
import { download } from "../lib/api.ts";
import { setLoading, showError, showSnack } from "../lib/events.ts";

type Query = Parameters<typeof download>[1];

/**
 * A list island's row dialogs: `editing` (undefined: closed; null: a new row; a row: editing it),
 * `deleting` (the row the confirmation asks about) and `busy` while the delete runs. `saved` closes
 * the form, shows its message and refetches; `remove` deletes through `del`, closes the confirmation
 * (on failure too), then shows the answer's message and refetches, or shows the error.
 */
export function useRowActions<T>(
  list: { refetch(): void },
  del: (row: T) => Promise<{ message?: string } | undefined>,
) {
  const [editing, setEditing] = useState<T | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);

  const saved = (message: string) => {
    setEditing(undefined);
    showSnack("success", message);
    list.refetch();
  };

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      const res = await del(deleting);
      setDeleting(null);
      showSnack("success", res?.message ?? "Success");
      list.refetch();
    } catch (e) {
      setDeleting(null);
      showError(e);
    } finally {
      setBusy(false);
    }
  };

  return { editing, setEditing, deleting, setDeleting, busy, saved, remove };
}

/**
 * Downloads every row of a list (`<endpoint>/download`, the table's filters and sort, no paging)
 * behind the loading dialog; a failure shows the error.
 */
export async function downloadList(endpoint: string, params: Record<string, unknown>) {
  setLoading(true);
  try {
    const { page: _p, rowsPerPage: _r, ...filters } = params;
    await download(`${endpoint}/download`, { ...filters, page: 1, rowsPerPage: -1 } as Query);
  } catch (e) {
    showError(e);
  } finally {
    setLoading(false);
  }
}
