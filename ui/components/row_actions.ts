import { useState } from "react";
import { showError, showSnack } from "../lib/events.ts";
import { ConflictError } from "../lib/api.ts";

/**
 * A list island's row dialogs: `editing` (undefined: closed; null: a new row; a row: editing it),
 * `deleting` (the row the confirmation asks about) and `busy` while the delete runs. `saved` closes
 * the form, shows its message and refetches; `remove` deletes through `del`, closes the confirmation
 * (on failure too), then shows the answer's message and refetches, or shows the error. A delete refused
 * because someone else changed the row (412, decision 038) refetches too, so the list shows the row as it
 * is now before the user deletes it again.
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
      if (e instanceof ConflictError) list.refetch();
    } finally {
      setBusy(false);
    }
  };

  return { editing, setEditing, deleting, setDeleting, busy, saved, remove };
}
